import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventType } from '../../../shared/messaging/events/event-types.js';
import { outboxEvent } from '../../../shared/messaging/events/outbox.js';
import { Client, newTenant } from '../../support/client.js';
import { localData } from '../../support/table.js';
import { eventually, startReceiver, type Receiver } from '../../support/webhook-receiver.js';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

const receivers: Receiver[] = [];
async function receiver(status?: (n: number) => number) {
  const r = await startReceiver(status);
  receivers.push(r);
  return r;
}
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function addWebhook(tenant: Tenant, url: string, events: EventType[], extra: Record<string, unknown> = {}) {
  const res = await tenant.post('/api/webhooks', { name: 'Hook', url, events, ...extra });
  expect(res.status).toBe(201);
  return res.body as { id: string; secret: string };
}

/**
 * Records an event the way every operation does: an outbox item written in a DynamoDB transaction. From
 * there on the path is the real one (table stream → fan-out → queue → dispatcher → HTTP).
 */
async function emit(tenantId: string, type: EventType, data: unknown) {
  const outcome = await localData()
    .transaction.write((tx) => outboxEvent(tx, { tenantId, type, data, now: new Date() }))
    .go();
  expect(outcome.canceled).toBe(false);
}

const deliveries = async (tenant: Client, webhookId: string) => (await tenant.get(`/api/webhooks/${webhookId}/deliveries`)).body;

/** The deliveries log once its newest entry has left `pending`. */
const settledDeliveries = (tenant: Client, webhookId: string, timeoutMs?: number) =>
  eventually(async () => {
    const log = await deliveries(tenant, webhookId);
    return log.items.length && log.items[0].status !== 'pending' ? log : undefined;
  }, timeoutMs);

describe('webhook delivery', () => {
  it('delivers an event once, signed, to each subscribed enabled webhook of the tenant and to no other', async () => {
    const tenant = await newTenant();
    const other = await newTenant();
    const [subscribed, otherKind, disabled, otherTenant] = await Promise.all([receiver(), receiver(), receiver(), receiver()]);
    const hook = await addWebhook(tenant, subscribed.url, ['customer.created', 'customer.updated']);
    const otherKindHook = await addWebhook(tenant, otherKind.url, ['license.created']);
    const disabledHook = await addWebhook(tenant, disabled.url, ['customer.created'], { enabled: false });
    const otherTenantHook = await addWebhook(other, otherTenant.url, ['customer.created']);

    const customer = { id: 'cus_test', email: 'buyer@example.com' };
    await emit(tenant.userId, 'customer.created', customer);
    // A later event to the same webhook: once it has arrived, the first one's fan-out is complete.
    await emit(tenant.userId, 'customer.updated', customer);
    // Deliveries are at least once and unordered: each is found by its type, not by when it arrived.
    const arrived = await subscribed.waitFor(2);
    const first = arrived.find((request) => request.json?.type === 'customer.created');
    const second = arrived.find((request) => request.json?.type === 'customer.updated');

    const payload = new Webhook(hook.secret).verify(first!.body, first!.headers as Record<string, string>) as any;
    expect(payload).toEqual({ id: expect.stringMatching(/^evt_[a-z2-7]{24}$/), type: 'customer.created', createdAt: expect.any(String), data: customer });
    expect(first!.headers['webhook-id']).toBe(payload.id);
    expect(first!.headers['content-type']).toBe('application/json');
    expect(second!.json.type).toBe('customer.updated');

    const log = await eventually(async () => {
      const current = await deliveries(tenant, hook.id);
      return current.items.length === 2 && current.items.every((d: any) => d.status !== 'pending') ? current : undefined;
    });
    // Both were recorded within a moment of each other: the log's order between them is not the point here.
    const byType = [...log.items].sort((a: any, b: any) => a.eventType.localeCompare(b.eventType));
    expect(byType.map((d: any) => [d.eventType, d.status, d.attempts, d.responseStatus])).toEqual([
      ['customer.created', 'succeeded', 1, 200],
      ['customer.updated', 'succeeded', 1, 200],
    ]);
    expect(byType[0]).toMatchObject({ id: expect.stringMatching(/^dlv_/), eventId: payload.id, lastAttemptAt: expect.any(String), nextAttemptAt: null });
    expect(log.pagination).toEqual({ page: 1, perPage: 20, total: 2, totalPages: 1 });
    expect((await tenant.get(`/api/webhooks/${hook.id}`)).body.lastTriggeredAt).toEqual(expect.any(String));

    for (const [client, id] of [[tenant, otherKindHook.id], [tenant, disabledHook.id], [other, otherTenantHook.id]] as const) {
      expect((await deliveries(client, id)).items).toEqual([]);
    }
    expect([otherKind, disabled, otherTenant].map((r) => r.requests.length)).toEqual([0, 0, 0]);
    expect(subscribed.requests).toHaveLength(2);
  });

  it('retries a failing receiver with the same webhook-id and logs the attempts', async () => {
    const tenant = await newTenant();
    const flaky = await receiver((n) => (n <= 2 ? 500 : 200));
    const hook = await addWebhook(tenant, flaky.url, ['license.revoked']);
    await emit(tenant.userId, 'license.revoked', { id: 'lic_x' });

    const requests = await flaky.waitFor(3);
    expect(new Set(requests.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(new Set(requests.map((r) => r.body)).size).toBe(1);
    for (const r of requests) expect(() => new Webhook(hook.secret).verify(r.body, r.headers as Record<string, string>)).not.toThrow();

    const log = await settledDeliveries(tenant, hook.id);
    expect(log.items).toHaveLength(1);
    expect(log.items[0]).toMatchObject({ status: 'succeeded', attempts: 3, responseStatus: 200, nextAttemptAt: null });
  });

  it('shows a pending retry with its next attempt time', async () => {
    const tenant = await newTenant();
    const failing = await receiver(() => 503);
    const hook = await addWebhook(tenant, failing.url, ['license.expired']);
    await emit(tenant.userId, 'license.expired', { id: 'lic_x' });
    const pending = await eventually(async () => {
      const [item] = (await deliveries(tenant, hook.id)).items;
      // A settled attempt: while one is being sent its delivery shows the claim's hold, and no answer yet.
      return item?.attempts >= 1 && item.responseStatus ? item : undefined;
    });
    expect(pending).toMatchObject({ status: 'pending', responseStatus: 503, nextAttemptAt: expect.any(String) });
    expect(Date.parse(pending.nextAttemptAt)).toBeGreaterThan(Date.parse(pending.lastAttemptAt));
    await tenant.delete(`/api/webhooks/${hook.id}`);
  });

  it('marks a delivery failed after the last retry and leaves its message in the dead-letter queue', async () => {
    const tenant = await newTenant();
    const down = await receiver(() => 500);
    const hook = await addWebhook(tenant, down.url, ['payment.completed']);
    await emit(tenant.userId, 'payment.completed', { id: 'pay_x' });

    const log = await settledDeliveries(tenant, hook.id, 45_000);
    expect(log.items[0]).toMatchObject({ status: 'failed', attempts: 8, responseStatus: 500, nextAttemptAt: null });
    expect(down.requests).toHaveLength(8);
    const queue = (await new Client().get('/_local/webhook-queue')).body;
    expect(queue.deadLetters.map((m: { body: string }) => JSON.parse(m.body).deliveryId)).toContain(log.items[0].id);
  }, 60_000);

  it('signs with the new secret right after regenerate-secret; the old one no longer verifies', async () => {
    const tenant = await newTenant();
    const target = await receiver();
    const hook = await addWebhook(tenant, target.url, ['subscription.created']);
    const { body: regenerated } = await tenant.post(`/api/webhooks/${hook.id}/regenerate-secret`);
    await emit(tenant.userId, 'subscription.created', { id: 'sub_x' });
    const [request] = await target.waitFor(1);
    const headers = request!.headers as Record<string, string>;
    expect(() => new Webhook(regenerated.secret).verify(request!.body, headers)).not.toThrow();
    expect(() => new Webhook(hook.secret).verify(request!.body, headers)).toThrow();
  });

  it('redelivers a delivery as a new attempt of the same event', async () => {
    const tenant = await newTenant();
    const target = await receiver();
    const hook = await addWebhook(tenant, target.url, ['subscription.renewed']);
    await emit(tenant.userId, 'subscription.renewed', { id: 'sub_x' });
    await target.waitFor(1);
    const { items: [original] } = await settledDeliveries(tenant, hook.id);

    const res = await tenant.post(`/api/webhooks/${hook.id}/deliveries/${original.id}/redeliver`);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ id: expect.stringMatching(/^dlv_/), eventId: original.eventId, status: 'pending', attempts: 0 });
    expect(res.body.id).not.toBe(original.id);
    const [first, again] = await target.waitFor(2);
    expect(again!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(again!.body).toBe(first!.body);

    const log = await settledDeliveries(tenant, hook.id);
    expect(log.items.map((d: any) => [d.id, d.status])).toEqual([[res.body.id, 'succeeded'], [original.id, 'succeeded']]);
    expect((await tenant.post(`/api/webhooks/${hook.id}/deliveries/dlv_unknown/redeliver`)).status).toBe(404);
    const other = await newTenant();
    expect((await other.post(`/api/webhooks/${hook.id}/deliveries/${original.id}/redeliver`)).status).toBe(404);
  });

  it('disables a webhook whose receiver answers 410 Gone, without retrying', async () => {
    const tenant = await newTenant();
    const gone = await receiver(() => 410);
    const hook = await addWebhook(tenant, gone.url, ['license.deactivated']);
    await emit(tenant.userId, 'license.deactivated', { id: 'act_x' });
    const log = await settledDeliveries(tenant, hook.id);
    expect(log.items[0]).toMatchObject({ status: 'failed', attempts: 1, responseStatus: 410 });
    expect((await tenant.get(`/api/webhooks/${hook.id}`)).body.enabled).toBe(false);
    expect(gone.requests).toHaveLength(1);
  });

  it('paginates the deliveries log, newest first', async () => {
    const tenant = await newTenant();
    const target = await receiver();
    const hook = await addWebhook(tenant, target.url, ['customer.updated']);
    for (const n of [1, 2, 3]) await emit(tenant.userId, 'customer.updated', { n });
    await target.waitFor(3);
    const page2 = await eventually(async () => {
      const res = await tenant.get(`/api/webhooks/${hook.id}/deliveries?page=2&per_page=2`);
      return res.body.pagination.total === 3 ? res.body : undefined;
    });
    expect(page2.pagination).toEqual({ page: 2, perPage: 2, total: 3, totalPages: 2 });
    expect(page2.items).toHaveLength(1);
    expect((await tenant.get(`/api/webhooks/${hook.id}/deliveries?page=0`)).status).toBe(400);
  });
});
