import { describe, expect, inject, it } from 'vitest';
import { Client, newTenant, uniqueEmail } from '../../support/client.js';
import { emailsOnceSettled } from '../../support/mail.js';
import { startReceiver } from '../../support/webhook-receiver.js';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

/** A product, and a license of `seats` for `owner` active on `sites` (one of them a staging site). */
async function licensed(tenant: Tenant, owner: string, sites: string[]) {
  const product = (await tenant.post('/api/products', { name: 'Moving Plugin', productType: 'plugin' })).body;
  const created = await tenant.post('/api/licenses', { productId: product.id, customerEmail: owner, customerName: 'First Owner', seats: 3, expiresAt: '2099-01-01T00:00:00Z' });
  expect(created.status, created.text).toBe(201);
  for (const domain of sites) {
    const res = await tenant.post('/v1/licenses/activate', { license_key: created.body.licenseKey, domain }, { origin: null });
    expect(res.status, res.text).toBe(200);
  }
  return { product, license: created.body };
}

const customerByEmail = async (tenant: Tenant, email: string) => (await tenant.get(`/api/customers?search=${encodeURIComponent(email)}`)).body.items as any[];
const portalLicenses = (portal: Client, email: string) => portal.get(`/v1/portal/licenses?email=${encodeURIComponent(email)}`);

describe('license transfer (DECISIONS §15)', () => {
  it('moves the license with its key to a new customer, frees every seat, e-mails the new owner and emits license.transferred', async () => {
    const receiver = await startReceiver();
    try {
      const tenant = await newTenant();
      const owner = uniqueEmail('owner');
      const next = uniqueEmail('next');
      const { product, license } = await licensed(tenant, owner, ['shop.example.com', 'blog.example.com', 'staging.shop.example.com']);
      expect((await tenant.post('/api/webhooks', { name: 'Moves', url: receiver.url, events: ['license.transferred', 'customer.created'] })).status).toBe(201);

      // With the hosted portal on, the new owner's e-mail links to it (DECISIONS §25).
      expect((await tenant.put('/api/portal-settings', { enabled: true })).status).toBe(200);
      const res = await tenant.post(`/api/licenses/${license.id}/transfer`, { email: next.toUpperCase(), name: 'Sam Next' });
      expect(res.status, res.text).toBe(200);
      const [created] = await customerByEmail(tenant, next);
      expect(res.body).toMatchObject({ id: license.id, licenseKey: license.licenseKey, customerEmail: next, customerName: 'Sam Next', customerId: created.id, activatedCount: 0, stagingCount: 0, status: 'active' });
      expect(created).toMatchObject({ email: next, firstName: 'Sam', lastName: 'Next' });
      const detail = (await tenant.get(`/api/licenses/${license.id}`)).body;
      expect(detail.activations.map((activation: { status: string }) => activation.status)).toEqual(['deactivated', 'deactivated', 'deactivated']);
      // The e-mail lookups follow: the license is the new owner's, no longer the old one's.
      expect((await tenant.get(`/api/licenses?search=${encodeURIComponent(next)}`)).body.items.map((l: { id: string }) => l.id)).toEqual([license.id]);
      expect((await tenant.get(`/api/licenses?search=${encodeURIComponent(owner)}`)).body.items).toEqual([]);
      // The seats are free for the new owner's own sites.
      for (const domain of ['a.example.net', 'b.example.net', 'c.example.net']) {
        expect((await tenant.post('/v1/licenses/activate', { license_key: license.licenseKey, domain }, { origin: null })).status).toBe(200);
      }

      const [mail] = await emailsOnceSettled((email) => email.to.includes(next), 1);
      expect(mail!.subject).toBe('A Moving Plugin license was transferred to you');
      expect(mail!.text).toContain(license.licenseKey);
      expect(mail!.text).toContain('Hi Sam Next,');
      expect(mail!.text).toContain(`customer portal:\n    ${inject('baseUrl')}/portal?public_key=${product.public_key}`);

      await receiver.waitFor(2);
      // Deliveries are at least once (a busy machine's outbox sweep may forward an event the stream also did): count events.
      const events = () => new Set(receiver.requests.map((request) => request.json.id)).size;
      await expect.poll(events, { timeout: 1500 }).toBe(2);
      const transferred = receiver.requests.find((request) => request.json.type === 'license.transferred')!.json.data;
      expect(transferred).toMatchObject({ id: license.id, customerEmail: next, previousCustomerEmail: owner, previousCustomerId: license.customerId, activationsKept: false, activatedCount: 0 });
      expect(new Set(receiver.requests.filter((request) => request.json.type === 'customer.created').map((request) => request.json.id)).size).toBe(1);
    } finally {
      await receiver.close();
    }
  });

  it('keeps the activations when asked, to an existing customer; refuses a revoked license, the same owner and bad input', async () => {
    const tenant = await newTenant();
    const owner = uniqueEmail('owner');
    const existing = uniqueEmail('existing');
    const customer = (await tenant.post('/api/customers', { email: existing, firstName: 'Ada' })).body;
    const { product, license } = await licensed(tenant, owner, ['shop.example.com']);

    const kept = await tenant.post(`/api/licenses/${license.id}/transfer`, { email: existing, keepActivations: true });
    expect(kept.status, kept.text).toBe(200);
    expect(kept.body).toMatchObject({ customerId: customer.id, customerEmail: existing, customerName: null, activatedCount: 1 });
    expect((await tenant.get(`/api/licenses/${license.id}`)).body.activations[0].status).toBe('active');
    expect(await customerByEmail(tenant, existing)).toHaveLength(1);

    const same = await tenant.post(`/api/licenses/${license.id}/transfer`, { email: existing });
    expect(same).toMatchObject({ status: 400, body: { error: 'The license already belongs to this e-mail' } });
    for (const bad of [{}, { email: 'not-an-email' }, { email: owner, keepActivations: 'yes' }, { email: owner, extra: 1 }]) {
      expect((await tenant.post(`/api/licenses/${license.id}/transfer`, bad)).status, JSON.stringify(bad)).toBe(400);
    }
    expect((await tenant.post('/api/licenses/lic_aaaaaaaaaaaaaaaaaaaaaaaa/transfer', { email: owner })).status).toBe(404);
    expect((await (await newTenant()).post(`/api/licenses/${license.id}/transfer`, { email: owner })).status).toBe(404);

    const other = (await tenant.post('/api/licenses', { productId: product.id, customerEmail: owner })).body;
    expect((await tenant.post(`/api/licenses/${other.id}/revoke`, {})).status).toBe(200);
    const revoked = await tenant.post(`/api/licenses/${other.id}/transfer`, { email: existing });
    expect(revoked).toMatchObject({ status: 400, body: { error: 'A revoked license cannot be transferred' } });
    expect((await tenant.get(`/api/licenses/${other.id}`)).body.customerEmail).toBe(owner);
  });

  it("ends the floating leases the old owner's machines held, unless the sites are kept (DECISIONS §20)", async () => {
    const tenant = await newTenant();
    const product = (await tenant.post('/api/products', { name: 'Floating Plugin', productType: 'plugin' })).body;
    const floating = async () => (await tenant.post('/api/licenses', { productId: product.id, customerEmail: uniqueEmail('owner'), seats: 1, floating: true })).body;
    const edge = new Client();
    const lease = (licenseKey: string, machine: string) => edge.post('/v1/licenses/leases', { license_key: licenseKey, machine }, { origin: null });
    const heartbeat = (licenseKey: string, leaseId: string) => edge.post(`/v1/licenses/leases/${leaseId}/heartbeat`, { license_key: licenseKey }, { origin: null });
    const validate = (licenseKey: string, machine: string) => edge.post('/v1/licenses/validate', { license_key: licenseKey, machine }, { origin: null });

    const moved = await floating();
    const held = await lease(moved.licenseKey, 'old-owners-laptop');
    expect(held.status, held.text).toBe(201);
    expect((await tenant.post(`/api/licenses/${moved.id}/transfer`, { email: uniqueEmail('next') })).status).toBe(200);
    expect((await heartbeat(moved.licenseKey, held.body.lease_id)).status).toBe(404);
    expect((await validate(moved.licenseKey, 'old-owners-laptop')).body.valid).toBe(false);
    // The one seat is the new owner's.
    expect((await lease(moved.licenseKey, 'new-owners-desktop')).status).toBe(201);

    const kept = await floating();
    const keptLease = await lease(kept.licenseKey, 'shared-workstation');
    expect((await tenant.post(`/api/licenses/${kept.id}/transfer`, { email: uniqueEmail('next'), keepActivations: true })).status).toBe(200);
    expect((await heartbeat(kept.licenseKey, keptLease.body.lease_id)).status).toBe(200);
    expect((await validate(kept.licenseKey, 'shared-workstation')).body.valid).toBe(true);
  });

  it('through the portal: the owner named by `email` moves it to `toEmail`; another e-mail finds no such license', async () => {
    const tenant = await newTenant();
    const owner = uniqueEmail('owner');
    const next = uniqueEmail('next');
    const { license } = await licensed(tenant, owner, ['shop.example.com']);
    const portal = new Client();
    portal.bearer = (await tenant.post('/api/api-keys', { name: 'Portal server' })).body.key;
    const path = `/v1/portal/licenses/${license.id}/transfer`;

    expect(await portal.post(path, { email: next, toEmail: owner }, { origin: null })).toMatchObject({ status: 404, body: { error: 'License not found' } });
    expect((await portal.post(path, { email: owner, toEmail: 'nope' }, { origin: null })).status).toBe(400);
    const res = await portal.post(path, { email: owner.toUpperCase(), toEmail: next }, { origin: null });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ data: { id: license.id, licenseKey: license.licenseKey, customerEmail: next, status: 'active', activatedCount: 0 } });
    expect((await portalLicenses(portal, owner)).body.data).toEqual([]);
    expect((await portalLicenses(portal, next)).body.data).toMatchObject([{ id: license.id, licenseKey: license.licenseKey, siteCount: 0 }]);
    await emailsOnceSettled((email) => email.to.includes(next), 1);
  });
});
