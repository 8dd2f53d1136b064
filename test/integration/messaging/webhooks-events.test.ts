import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../../../shared/messaging/events/event-types.js';
import { sweepExpiredLicenses } from '../../../shared/licensing/licenses/expiry-sweep.js';
import { systemClock } from '../../../shared/platform/runtime.js';
import { Client, newTenant } from '../../support/client.js';
import { localData } from '../../support/table.js';
import { eventually, startReceiver, type Receiver } from '../../support/webhook-receiver.js';

/**
 * The events the service's own operations emit, each delivered once to a webhook subscribed to it,
 * and to no webhook subscribed to other kinds, no disabled webhook, and no other tenant's webhook.
 */
describe('events emitted by operations', () => {
  let subscribed: Receiver;
  let bystanders: Receiver;
  beforeAll(async () => {
    [subscribed, bystanders] = await Promise.all([startReceiver(), startReceiver()]);
  });
  afterAll(async () => {
    await Promise.all([subscribed.close(), bystanders.close()]);
  });

  it('delivers customer and license events of the API, the edge and the expiry sweep', async () => {
    const tenant = await newTenant();
    const other = await newTenant();
    const { body: hook } = await tenant.post('/api/webhooks', { name: 'All', url: subscribed.url, events: [...EVENT_TYPES] });
    const { body: otherKinds } = await tenant.post('/api/webhooks', { name: 'Payments', url: bystanders.url, events: ['payment.completed', 'payment.refunded'] });
    const { body: disabled } = await tenant.post('/api/webhooks', { name: 'Off', url: bystanders.url, events: [...EVENT_TYPES], enabled: false });
    const { body: foreign } = await other.post('/api/webhooks', { name: 'Other', url: bystanders.url, events: [...EVENT_TYPES] });

    const email = 'buyer@example.com';
    const customer = await tenant.post('/api/customers', { email, firstName: 'Ada' });
    expect(customer.status).toBe(201);
    expect((await tenant.put(`/api/customers/${customer.body.id}`, { lastName: 'Lovelace' })).status).toBe(200);
    const { body: product } = await tenant.post('/api/products', { name: 'Hooked', productType: 'plugin' });
    const license = await tenant.post('/api/licenses', { productId: product.id, customerEmail: email, seats: 2 });
    expect(license.status).toBe(201);
    const edge = new Client();
    const activated = await edge.post('/v1/licenses/activate', { license_key: license.body.licenseKey, domain: 'example.com' }, { origin: null });
    expect(activated.status).toBe(200);
    // A local copy of the site: a staging activation, which the event says.
    const local = await edge.post('/v1/licenses/activate', { license_key: license.body.licenseKey, domain: 'http://localhost:8080' }, { origin: null });
    expect([local.status, local.body.environment]).toEqual([200, 'staging']);
    expect((await edge.post('/v1/licenses/deactivate', { license_key: license.body.licenseKey, domain: 'example.com' }, { origin: null })).status).toBe(200);
    expect((await tenant.post(`/api/licenses/${license.body.id}/revoke`)).status).toBe(200);
    const lapsed = await tenant.post('/api/licenses', { productId: product.id, customerEmail: email, expiresAt: new Date(Date.now() - 1000).toISOString() });
    expect(lapsed.status).toBe(201);
    // The job's domain function, as the scheduled sweep runs it, on its keys only (the local timer may also run it meanwhile: one event either way).
    await sweepExpiredLicenses({ data: localData('expirySweep'), clock: systemClock });

    const expected = [
      'customer.created', 'customer.updated', 'license.created', 'license.created', 'license.activated', 'license.activated', 'license.deactivated',
      'license.revoked', 'license.expired',
    ];
    const requests = await subscribed.waitFor(expected.length);
    const events = requests.map((r) => new Webhook(hook.secret).verify(r.body, r.headers as Record<string, string>) as any);
    expect(events.map((e) => e.type).sort()).toEqual([...expected].sort());
    const byType = Object.fromEntries(events.map((e) => [e.type, e]));
    expect(byType['customer.created'].data).toMatchObject({ id: customer.body.id, email });
    expect(byType['customer.updated'].data).toMatchObject({ id: customer.body.id, lastName: 'Lovelace' });
    const created = events.filter((e) => e.type === 'license.created').map((e) => [e.data.id, e.data.licenseKey]);
    expect(created.sort()).toEqual([[license.body.id, license.body.licenseKey], [lapsed.body.id, lapsed.body.licenseKey]].sort());
    const activations = events.filter((e) => e.type === 'license.activated').map((e) => [e.data.domain, e.data.environment, e.data.license.id]);
    expect(activations.sort()).toEqual([['example.com', 'production', license.body.id], ['localhost', 'staging', license.body.id]]);
    expect(byType['license.deactivated'].data).toMatchObject({ id: activated.body.activation_id, domain: 'example.com', environment: 'production', status: 'deactivated' });
    expect(byType['license.revoked'].data).toMatchObject({ id: license.body.id, status: 'revoked', activatedCount: 0, stagingCount: 0 });
    expect(byType['license.expired'].data).toMatchObject({ id: lapsed.body.id, licenseKey: lapsed.body.licenseKey, status: 'expired' });
    expect(new Set(events.map((e) => e.id)).size).toBe(expected.length);

    // Every delivery is recorded before it is sent: once all have succeeded, none went anywhere else.
    await eventually(async () => {
      const { items } = (await tenant.get(`/api/webhooks/${hook.id}/deliveries`)).body;
      return items.length === expected.length && items.every((d: { status: string }) => d.status === 'succeeded') ? true : undefined;
    });
    for (const [client, id] of [[tenant, otherKinds.id], [tenant, disabled.id], [other, foreign.id]] as const) {
      expect((await client.get(`/api/webhooks/${id}/deliveries`)).body.items).toEqual([]);
    }
    expect(bystanders.requests).toEqual([]);
    expect(subscribed.requests).toHaveLength(expected.length);
  });
});
