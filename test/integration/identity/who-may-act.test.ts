import { describe, expect, it } from 'vitest';
import { Client, newTenant, uniqueEmail, unverifiedTenant, type Tenant } from '../../support/client.js';
import { stripeTestKey } from '../../support/fake-stripe.js';
import { newProduct } from '../../support/licensing-fixtures.js';
import { verifyAddress } from '../../support/mail.js';
import { localData } from '../../support/table.js';
import { joinedMember } from '../../support/team.js';

/**
 * DECISIONS §20, who may act: the routes that reach beyond the account (people invited, URLs sent the account's data, a
 * Stripe account paid, data carried out or in) need a verified address; changing the team and connecting a payment
 * provider need a signed-in session, never an API key.
 */
const VERIFY_FIRST = { status: 403, body: { error: 'Verify your e-mail address first' } };
const SESSION_ONLY = { status: 403, body: { error: 'This route needs a signed-in session' } };
const webhookSecret = 'whsec_dGVzdHNlY3JldHRlc3RzZWNyZXQ=';
const connectBody = () => ({ provider: 'stripe', secretKey: stripeTestKey(), webhookSecret });
const csv = (productId: string) => `license_key,customer_email\nVERIFY-${productId}-1,${uniqueEmail('imported')}\n`;

const keyOf = async (tenant: Tenant) => {
  const made = await tenant.post('/api/api-keys', { name: 'server' });
  expect(made.status, made.text).toBe(201);
  return Object.assign(new Client(), { bearer: made.body.key as string });
};

/** The account's address as a registrant who never opened its link has it (the write its link undoes). */
const unverify = (tenant: Tenant) => localData().entities.user.patch({ userId: tenant.userId }).set({ emailVerified: false }).go();

describe('a verified address (DECISIONS §20)', () => {
  it('is needed to invite, to add or change webhooks, to connect a payment provider, to export and to import: by session and by key', async () => {
    const tenant = await unverifiedTenant();
    const key = await keyOf(tenant);
    const product = await newProduct(tenant);
    const importCsv = (client: Client) =>
      client.request('POST', `/api/imports?productId=${product.id}&format=csv`, { rawBody: csv(product.id), headers: { 'content-type': 'text/csv' }, origin: client.bearer ? null : undefined });
    const refusedBySession = [
      () => tenant.post('/api/team/invitations', { email: uniqueEmail('invitee'), role: 'admin' }),
      () => tenant.post('/api/webhooks', { name: 'Hook', url: 'http://127.0.0.1:9/hook', events: ['license.created'] }),
      () => tenant.put('/api/payment-provider', connectBody()),
      () => tenant.post('/api/exports', { format: 'jsonl' }),
      () => importCsv(tenant),
      () => tenant.post('/api/imports/upload-url', { fileSize: 100 }),
    ];
    const refusedByKey = [
      () => key.post('/api/webhooks', { name: 'Hook', url: 'http://127.0.0.1:9/hook', events: ['license.created'] }, { origin: null }),
      () => key.post('/api/exports', { format: 'csv' }, { origin: null }),
      () => importCsv(key),
      () => key.post('/api/imports/upload-url', { fileSize: 100 }, { origin: null }),
    ];
    for (const [n, send] of [...refusedBySession, ...refusedByKey].entries()) expect(await send(), `request ${n}`).toMatchObject(VERIFY_FIRST);
    // Nothing was written.
    expect((await tenant.get('/api/team/invitations')).body.items).toEqual([]);
    expect((await tenant.get('/api/webhooks')).body.items).toEqual([]);
    expect((await tenant.get('/api/payment-provider')).body.connected).toBe(false);
    expect((await tenant.get('/api/imports')).body.items).toEqual([]);

    // Once its owner opens the link, the same requests pass.
    await verifyAddress(tenant.email);
    expect((await refusedBySession[0]!()).status).toBe(201);
    expect((await refusedBySession[1]!()).status).toBe(201);
    expect((await refusedBySession[2]!()).status).toBe(200);
    expect((await refusedBySession[3]!()).status).toBe(202);
    expect((await refusedByKey[1]!()).status).toBe(202);
    expect((await refusedByKey[3]!()).status).toBe(200);
  });

  it('is needed for every change of a webhook, not only its creation', async () => {
    // An account that made its webhook before it had to be verified to (or whose address was taken back since).
    const tenant = await newTenant();
    const webhook = (await tenant.post('/api/webhooks', { name: 'Hook', url: 'http://127.0.0.1:9/hook', events: ['license.created'] })).body;
    await unverify(tenant);
    expect(await tenant.put(`/api/webhooks/${webhook.id}`, { url: 'http://127.0.0.1:9/elsewhere' })).toMatchObject(VERIFY_FIRST);
    expect(await tenant.post(`/api/webhooks/${webhook.id}/regenerate-secret`)).toMatchObject(VERIFY_FIRST);
    expect(await tenant.post(`/api/webhooks/${webhook.id}/test`)).toMatchObject(VERIFY_FIRST);
    expect((await tenant.get(`/api/webhooks/${webhook.id}`)).body).toMatchObject({ url: 'http://127.0.0.1:9/hook', secret: webhook.secret });
    // Reading and removing stay open to it.
    expect((await tenant.delete(`/api/webhooks/${webhook.id}`)).status).toBe(204);
  });
});

describe('a signed-in session (DECISIONS §20)', () => {
  it('is needed to change the team or connect a payment provider: an admin key, leaked and later revoked, cannot have let anyone in', async () => {
    const owner = await newTenant();
    const key = await keyOf(owner);
    const member = await joinedMember(owner, 'viewer', owner.userId);
    const invitation = (await owner.post('/api/team/invitations', { email: uniqueEmail('pending'), role: 'viewer' })).body;
    const asKey = { origin: null };
    expect(await key.post('/api/team/invitations', { email: uniqueEmail('outsider'), role: 'admin' }, asKey)).toMatchObject(SESSION_ONLY);
    expect(await key.put(`/api/team/members/${member.userId}`, { role: 'admin' }, asKey)).toMatchObject(SESSION_ONLY);
    expect(await key.delete(`/api/team/members/${member.userId}`, asKey)).toMatchObject(SESSION_ONLY);
    expect(await key.delete(`/api/team/invitations/${invitation.id}`, asKey)).toMatchObject(SESSION_ONLY);
    expect(await key.put('/api/payment-provider', connectBody(), asKey)).toMatchObject(SESSION_ONLY);
    // Nothing changed; reading the team stays open to a key.
    expect((await key.get('/api/team/members', asKey)).body.items.map((m: { userId: string; role: string }) => [m.userId, m.role])).toEqual([
      [owner.userId, 'owner'],
      [member.userId, 'viewer'],
    ]);
    expect((await key.get('/api/team/invitations', asKey)).body.items.map((i: { id: string }) => i.id)).toEqual([invitation.id]);
    expect((await key.get('/api/payment-provider', asKey)).body.connected).toBe(false);
    // The session does all of it.
    expect((await owner.put('/api/payment-provider', connectBody())).status).toBe(200);
    expect((await owner.put(`/api/team/members/${member.userId}`, { role: 'developer' })).status).toBe(200);
    expect((await owner.delete(`/api/team/invitations/${invitation.id}`)).status).toBe(204);
    expect((await owner.delete(`/api/team/members/${member.userId}`)).status).toBe(204);
  });
});
