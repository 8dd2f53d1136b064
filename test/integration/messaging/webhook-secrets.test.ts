import { createHash, randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newTenant } from '../../support/client.js';
import { localData } from '../../support/table.js';
import { startReceiver, type Receiver } from '../../support/webhook-receiver.js';

/**
 * Webhooks' signing secrets are sealed in the table like the vendors' Stripe secrets: neither the webhook item nor the
 * idempotency record of the request that made or regenerated it holds one in clear. The management API still shows
 * the secret where it always did, and the dispatcher and the test send still sign with it.
 */
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

const hook = (extra: Record<string, unknown> = {}) => ({ name: 'Orders', url: receiver.url, events: ['license.created'], ...extra });
const itemOf = async (webhookId: string) => (await localData().entities.webhook.get({ webhookId }).go({ consistent: true })).data!;

/** The idempotency record of a caller's key (shared/platform/http/idempotency.ts names it so). */
async function recordOf(userId: string, key: string) {
  const idempotencyKeyHash = createHash('sha256').update(`user#${userId}`).update('\n').update(key).digest('base64url');
  return (await localData().entities.idempotencyRecord.get({ idempotencyKeyHash }).go({ consistent: true })).data;
}

/** The last request the receiver got verifies with `secret` (Standard Webhooks). */
const signedWith = (secret: string) => {
  const request = receiver.requests.at(-1)!;
  return new Webhook(secret).verify(request.body, request.headers as Record<string, string>) as { type: string };
};

describe('webhook secrets', () => {
  it('are sealed in the webhook item and kept out of idempotency records, shown by the API, and replayed by reading them again', async () => {
    const tenant = await newTenant();
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const key = randomUUID();
    const created = await tenant.post('/api/webhooks', hook({ secret }), { headers: { 'idempotency-key': key } });
    expect([created.status, created.body.secret]).toEqual([201, secret]);
    const item = await itemOf(created.body.id);
    expect(item.secret).toBeUndefined();
    expect(item.sealedSecret).toMatch(/^v2\./);
    expect(JSON.stringify(item)).not.toContain(secret.slice('whsec_'.length));
    const record = await recordOf(tenant.userId, key);
    expect(record?.state).toBe('completed');
    expect(JSON.stringify(record)).not.toContain(secret.slice('whsec_'.length));

    // A retry of the create answers as the first did, its secret read again from the webhook.
    const replayed = await tenant.post('/api/webhooks', hook({ secret }), { headers: { 'idempotency-key': key } });
    expect([replayed.status, replayed.headers.get('idempotent-replayed'), replayed.body]).toEqual([201, 'true', created.body]);
    expect((await tenant.get(`/api/webhooks/${created.body.id}`)).body.secret).toBe(secret);
    expect((await tenant.get('/api/webhooks')).body.items).toEqual([created.body]);

    const regenerateKey = randomUUID();
    const regenerated = await tenant.post(`/api/webhooks/${created.body.id}/regenerate-secret`, undefined, { headers: { 'idempotency-key': regenerateKey } });
    const fresh = regenerated.body.secret as string;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(secret);
    expect(JSON.stringify(await itemOf(created.body.id))).not.toContain(fresh.slice('whsec_'.length));
    expect(JSON.stringify(await recordOf(tenant.userId, regenerateKey))).not.toContain(fresh.slice('whsec_'.length));
    const again = await tenant.post(`/api/webhooks/${created.body.id}/regenerate-secret`, undefined, { headers: { 'idempotency-key': regenerateKey } });
    expect([again.headers.get('idempotent-replayed'), again.body]).toEqual(['true', regenerated.body]);

    // Sent with the sealed secret: the test send now, a delivery by the dispatcher.
    expect((await tenant.post(`/api/webhooks/${created.body.id}/test`)).body).toMatchObject({ success: true });
    expect(signedWith(fresh).type).toBe('webhook.test');
    const product = await tenant.post('/api/products', { name: `Sealed ${randomUUID().slice(0, 8)}`, productType: 'plugin' });
    const delivered = receiver.requests.length + 1;
    await tenant.post('/api/licenses', { productId: product.body.id, customerEmail: 'buyer@example.com' });
    await receiver.waitFor(delivered);
    expect(signedWith(fresh).type).toBe('license.created');

    // Replayed after the webhook is gone: there is no secret to read again.
    expect((await tenant.delete(`/api/webhooks/${created.body.id}`)).status).toBe(204);
    const gone = await tenant.post('/api/webhooks', hook({ secret }), { headers: { 'idempotency-key': key } });
    expect([gone.status, gone.body]).toEqual([404, { error: 'Webhook not found' }]);
  });

  it('still read and sign with the clear secret of a webhook made before secrets were sealed, until it is regenerated', async () => {
    const tenant = await newTenant();
    const { body: created } = await tenant.post('/api/webhooks', hook());
    // The item as it was stored before secrets were sealed.
    const legacy = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
    await localData().entities.webhook.patch({ webhookId: created.id }).set({ secret: legacy }).remove(['sealedSecret']).go();

    expect((await tenant.get(`/api/webhooks/${created.id}`)).body.secret).toBe(legacy);
    expect((await tenant.post(`/api/webhooks/${created.id}/test`)).body).toMatchObject({ success: true });
    expect(signedWith(legacy).type).toBe('webhook.test');

    const { body: regenerated } = await tenant.post(`/api/webhooks/${created.id}/regenerate-secret`);
    const item = await itemOf(created.id);
    expect(item.secret).toBeUndefined();
    expect(item.sealedSecret).toMatch(/^v2\./);
    expect((await tenant.get(`/api/webhooks/${created.id}`)).body.secret).toBe(regenerated.secret);
  });
});
