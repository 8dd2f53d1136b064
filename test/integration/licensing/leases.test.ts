import { Webhook } from 'standardwebhooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expireLeases } from '../../../shared/licensing/leases/lease-expiry.js';
import { systemClock } from '../../../shared/platform/runtime.js';
import { licensedProduct, plugin } from '../../support/licensing-fixtures.js';
import { localData } from '../../support/table.js';
import { startReceiver, type Receiver } from '../../support/webhook-receiver.js';

const edge = plugin();
const lease = (licenseKey: string, machine: string) => edge.post('/v1/licenses/leases', { license_key: licenseKey, machine }, { origin: null });
const heartbeat = (licenseKey: string, leaseId: string) =>
  edge.post(`/v1/licenses/leases/${leaseId}/heartbeat`, { license_key: licenseKey }, { origin: null });
const release = (licenseKey: string, leaseId: string) =>
  edge.delete(`/v1/licenses/leases/${leaseId}?license_key=${encodeURIComponent(licenseKey)}`, { origin: null });
const validate = (licenseKey: string, machine?: string) => edge.post('/v1/licenses/validate', { license_key: licenseKey, machine }, { origin: null });

/** Moves a lease's end into the past in every item that holds it, as the passing of its lease time would. */
async function lapse(licenseId: string, leaseId: string) {
  const data = localData();
  const past = new Date(Date.now() - 1000).toISOString();
  const { data: item } = await data.entities.lease.get({ leaseId }).go({ consistent: true });
  await data.entities.leaseSlot.patch({ licenseId, slot: item!.slot }).set({ expiresAt: past }).go();
  await data.entities.leaseHold.patch({ licenseId, machine: item!.machine }).set({ expiresAt: past }).go();
  await data.entities.lease.patch({ leaseId }).set({ expiresAt: past, leaseShard: item!.leaseShard }).go();
}

describe('floating licenses (DECISIONS §18)', () => {
  // A receiver per test, so each counts only its own tenant's deliveries.
  let receiver: Receiver;
  beforeEach(async () => {
    receiver = await startReceiver();
  });
  afterEach(() => receiver.close());

  it('gives exactly `seats` leases to 50 concurrent requests, and tells the full pool once', async () => {
    const { tenant, license } = await licensedProduct({ seats: 5, floating: true });
    const hook = await tenant.post('/api/webhooks', { name: 'Seats', url: receiver.url, events: ['license.seats_exhausted', 'lease.created'] });
    expect(hook.status).toBe(201);
    const answers = await Promise.all(Array.from({ length: 50 }, (_, n) => lease(license.licenseKey, `machine-${n}`)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 409)).toHaveLength(45);
    expect(answers.find((a) => a.status === 409)!.body).toMatchObject({ error: 'All seats are in use' });
    expect(new Set(answers.filter((a) => a.status === 201).map((a) => a.body.lease_id)).size).toBe(5);
    // Refused again: the same fill, not told twice.
    expect((await lease(license.licenseKey, 'machine-late')).status).toBe(409);

    const events = (await receiver.waitFor(6)).map((r) => new Webhook(hook.body.secret).verify(r.body, r.headers as Record<string, string>) as any);
    expect(events.map((e) => e.type).sort()).toEqual([...Array(5).fill('lease.created'), 'license.seats_exhausted']);
    expect(events.find((e) => e.type === 'license.seats_exhausted').data).toMatchObject({ licenseId: license.id, seats: 5 });
    expect(events.find((e) => e.type === 'license.seats_exhausted').data.leaseIds).toHaveLength(5);
  });

  it('renews the same machine, heartbeats, releases, and frees an expired seat at once', async () => {
    const { tenant, license } = await licensedProduct({ seats: 1, floating: true, leaseSeconds: 120 });
    const key = license.licenseKey;
    const first = await lease(key, 'desk-1');
    expect(first.status, first.text).toBe(201);
    expect(first.body).toMatchObject({ lease_id: expect.stringMatching(/^lse_[a-z2-7]{24}$/), license_key: key, machine: 'desk-1' });
    const leftMs = Date.parse(first.body.expires_at) - Date.now();
    expect(leftMs).toBeGreaterThan(110_000);
    expect(leftMs).toBeLessThanOrEqual(120_000);
    // The same machine renews its lease rather than taking a second seat.
    const renewed = await lease(key, 'desk-1');
    expect([renewed.status, renewed.body.lease_id]).toEqual([201, first.body.lease_id]);
    expect(renewed.body.expires_at >= first.body.expires_at).toBe(true);
    expect((await lease(key, 'desk-2')).status).toBe(409);
    const live = await tenant.get(`/api/licenses/${license.id}/leases`);
    expect(live.body.data).toEqual([{ id: first.body.lease_id, machine: 'desk-1', slot: 0, expiresAt: renewed.body.expires_at }]);

    const beat = await heartbeat(key, first.body.lease_id);
    expect([beat.status, typeof beat.body.expires_at]).toEqual([200, 'string']);

    // Validate: a machine is valid only while it holds a live lease; without one named, the license is.
    expect((await validate(key, 'desk-1')).body).toMatchObject({ valid: true, lease: { leaseId: first.body.lease_id } });
    expect((await validate(key)).body.valid).toBe(true);
    const other = await validate(key, 'desk-2');
    expect([other.status, other.body]).toMatchObject([400, { valid: false, error: 'Machine holds no live lease' }]);

    // Expired: the next request takes the seat at once, with no sweep in between; the old lease is gone for heartbeats.
    await lapse(license.id, first.body.lease_id);
    expect((await validate(key, 'desk-1')).body).toMatchObject({ valid: false, error: 'Machine holds no live lease' });
    const second = await lease(key, 'desk-2');
    expect(second.status, second.text).toBe(201);
    const late = await heartbeat(key, first.body.lease_id);
    expect([late.status, late.body.error]).toEqual([404, 'Lease not found']);
    expect((await release(key, first.body.lease_id)).status).toBe(404);

    // Released: free at once.
    expect((await release(key, second.body.lease_id)).status).toBe(204);
    expect((await heartbeat(key, second.body.lease_id)).status).toBe(404);
    expect((await lease(key, 'desk-3')).status).toBe(201);
  });

  it('sends lease.released and, once noticed, lease.expired', async () => {
    const { tenant, license } = await licensedProduct({ seats: 2, floating: true });
    const hook = await tenant.post('/api/webhooks', { name: 'Leases', url: receiver.url, events: ['lease.released', 'lease.expired'] });
    const key = license.licenseKey;
    const kept = (await lease(key, 'kept')).body.lease_id;
    const returned = (await lease(key, 'returned')).body.lease_id;
    expect((await release(key, returned)).status).toBe(204);
    await lapse(license.id, kept);
    // The job's domain function, on its keys only (the local timer may run it too: one event either way).
    await expireLeases({ data: localData('leaseExpiry'), clock: systemClock });
    const events = (await receiver.waitFor(2)).map((r) => new Webhook(hook.body.secret).verify(r.body, r.headers as Record<string, string>) as any);
    expect(Object.fromEntries(events.map((e) => [e.type, e.data.id]))).toEqual({ 'lease.released': returned, 'lease.expired': kept });
  });

  it('refuses leases on a license that is not floating, and activations on one that is', async () => {
    const { tenant, license } = await licensedProduct({ seats: 1 });
    const refused = await lease(license.licenseKey, 'desk');
    expect([refused.status, refused.body.error]).toEqual([400, 'License is not floating']);
    expect((await edge.post('/v1/licenses/activate', { license_key: license.licenseKey, machine: 'desk' }, { origin: null })).status).toBe(200);
    const made = await tenant.put(`/api/licenses/${license.id}`, { floating: true });
    expect([made.status, made.body.error]).toEqual([400, "Deactivate the license's activations before making it floating"]);
    expect((await edge.post('/v1/licenses/deactivate', { license_key: license.licenseKey, machine: 'desk' }, { origin: null })).status).toBe(200);
    const floating = await tenant.put(`/api/licenses/${license.id}`, { floating: true, leaseSeconds: 60 });
    expect(floating.body).toMatchObject({ floating: true, leaseSeconds: 60 });
    const activate = await edge.post('/v1/licenses/activate', { license_key: license.licenseKey, machine: 'desk' }, { origin: null });
    expect([activate.status, activate.body.error]).toEqual([400, 'License is floating: take a lease instead']);
    const short = await tenant.put(`/api/licenses/${license.id}`, { leaseSeconds: 59 });
    expect(short.status).toBe(400);
    const unknown = await heartbeat(license.licenseKey, 'lse_nope');
    expect([unknown.status, unknown.body.error]).toEqual([404, 'Lease not found']);
  });
});
