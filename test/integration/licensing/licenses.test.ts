import { describe, expect, it } from 'vitest';
import { systemClock } from '../../../shared/platform/runtime.js';
import { sweepExpiredLicenses } from '../../../shared/licensing/licenses/expiry-sweep.js';
import { newTenant, type Client } from '../../support/client.js';
import { localData } from '../../support/table.js';

const KEY_GROUPS = /^[A-Z0-9_-]*-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/;

async function newProduct(tenant: Client, name = 'Widget Pro') {
  const res = await tenant.post('/api/products', { name, productType: 'plugin' });
  expect(res.status).toBe(201);
  return res.body as { id: string; name: string; slug: string; licensePrefix: string };
}

async function newLicense(tenant: Client, body: Record<string, unknown>) {
  const res = await tenant.post('/api/licenses', body);
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function activate(tenant: Client, licenseKey: string, domain: string) {
  const res = await tenant.post('/v1/licenses/activate', { license_key: licenseKey, domain }, { origin: null });
  expect(res.status, res.text).toBe(200);
  return res.body.activation_id as string;
}

const validate = (tenant: Client, licenseKey: string) => tenant.post('/v1/licenses/validate', { license_key: licenseKey }, { origin: null });
const total = async (tenant: Client, query = '') => (await tenant.get(`/api/licenses${query}`)).body.pagination.total as number;

describe('licenses', () => {
  it('creates a license with defaults, a generated key and a new linked customer', async () => {
    const tenant = await newTenant();
    const product = await newProduct(tenant);
    const license = await newLicense(tenant, { productId: product.id, customerEmail: 'Buyer@Example.com', customerName: 'Jane Buyer' });
    expect(license).toEqual({
      id: expect.stringMatching(/^lic_[a-z2-7]{24}$/),
      licenseKey: expect.stringMatching(KEY_GROUPS),
      productId: product.id,
      planId: null,
      customerId: expect.stringMatching(/^cus_[a-z2-7]{24}$/),
      customerEmail: 'buyer@example.com',
      customerName: 'Jane Buyer',
      status: 'active',
      seats: 1,
      activatedCount: 0,
      stagingCount: 0,
      expiresAt: null,
      graceUntil: null,
      trialEndsAt: null,
      channel: 'stable',
      floating: false,
      leaseSeconds: 900,
      features: [],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      product: { id: product.id, name: product.name, slug: product.slug },
    });
    expect(license.licenseKey.startsWith(product.licensePrefix)).toBe(true);
    expect((await tenant.get(`/api/licenses/${license.id}`)).body).toEqual({ ...license, activations: [] });

    const customers = (await tenant.get('/api/customers')).body;
    expect(customers.pagination.total).toBe(1);
    expect(customers.items[0]).toMatchObject({ id: license.customerId, email: 'buyer@example.com', firstName: 'Jane', lastName: 'Buyer' });
    // The same e-mail in another case links the same customer.
    const second = await newLicense(tenant, { productId: product.id, customerEmail: 'BUYER@example.com' });
    expect(second.customerId).toBe(license.customerId);
    expect((await tenant.get('/api/customers')).body.pagination.total).toBe(1);
    expect((await validate(tenant, license.licenseKey)).body).toMatchObject({ valid: true });
  });

  it('takes seats from the plan, and expiry and seats from the body', async () => {
    const tenant = await newTenant();
    const product = await newProduct(tenant);
    const plan = await tenant.post(`/api/products/${product.id}/plans`, { name: 'Agency', billingCycle: 'yearly', price: 99, currency: 'USD', siteLimit: 25 });
    expect(plan.status, plan.text).toBe(201);
    const fromPlan = await newLicense(tenant, { productId: product.id, planId: plan.body.id, customerEmail: 'a@example.com' });
    expect(fromPlan).toMatchObject({ planId: plan.body.id, seats: 25 });
    const expiresAt = '2031-01-02T03:04:05.000Z';
    const explicit = await newLicense(tenant, { productId: product.id, planId: plan.body.id, customerEmail: 'a@example.com', seats: 3, expiresAt: '2031-01-02T04:04:05+01:00' });
    expect(explicit).toMatchObject({ seats: 3, expiresAt });
  });

  it('refuses unknown, deleted and foreign products and plans with 404, writing nothing', async () => {
    const tenant = await newTenant();
    const other = await newTenant();
    const product = await newProduct(tenant);
    const foreign = await newProduct(other, 'Foreign');
    const otherProduct = await newProduct(tenant, 'Second');
    const plan = await tenant.post(`/api/products/${otherProduct.id}/plans`, { name: 'P', billingCycle: 'yearly', price: 1, currency: 'USD' });
    const deleted = await newProduct(tenant, 'Gone');
    expect((await tenant.delete(`/api/products/${deleted.id}`)).status).toBe(204);
    const cases: [Record<string, unknown>, string][] = [
      [{ productId: foreign.id }, 'Product not found'],
      [{ productId: 'prd_doesnotexist' }, 'Product not found'],
      [{ productId: deleted.id }, 'Product not found'],
      [{ productId: product.id, planId: plan.body.id }, 'Plan not found'],
      [{ productId: product.id, planId: 'pln_unknown' }, 'Plan not found'],
    ];
    for (const [body, error] of cases) {
      const res = await tenant.post('/api/licenses', { ...body, customerEmail: 'x@example.com' });
      expect(res.status, JSON.stringify(body)).toBe(404);
      expect(res.body.error).toBe(error);
    }
    expect(await total(tenant)).toBe(0);
    expect((await tenant.get('/api/customers')).body.pagination.total).toBe(0);
  });

  it('validates input with 400 and writes nothing', async () => {
    const tenant = await newTenant();
    const product = await newProduct(tenant);
    const base = { productId: product.id, customerEmail: 'v@example.com' };
    const cases: [unknown, RegExp][] = [
      [{ customerEmail: 'v@example.com' }, /productId is required/],
      [{ productId: product.id }, /customerEmail is required/],
      [{ ...base, customerEmail: 'not-an-email' }, /customerEmail/],
      [{ ...base, seats: 0 }, /seats/],
      [{ ...base, seats: 1.5 }, /seats/],
      [{ ...base, seats: '2' }, /seats/],
      [{ ...base, expiresAt: 'tomorrow' }, /expiresAt/],
      [{ ...base, expiresAt: 1700000000 }, /expiresAt/],
      [{ ...base, status: 'active' }, /Unknown field: status/],
      [{ ...base, customerName: { first: 'A' } }, /customerName/],
    ];
    for (const [body, message] of cases) {
      const res = await tenant.post('/api/licenses', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatch(message);
    }
    expect(await total(tenant)).toBe(0);
    expect((await tenant.get('/api/customers')).body.pagination.total).toBe(0);
  });

  it('lists newest first with exact totals per filter, paginates, and searches by key or e-mail prefix', async () => {
    const tenant = await newTenant();
    const one = await newProduct(tenant, 'One');
    const two = await newProduct(tenant, 'Two');
    const created = [];
    for (const [product, email] of [[one, 'alice@a.com'], [one, 'bob@b.com'], [two, 'alice@a.com'], [two, 'carol@c.com'], [one, 'dave@d.com']] as const) {
      created.push(await newLicense(tenant, { productId: product.id, customerEmail: email }));
    }
    await tenant.put(`/api/licenses/${created[1].id}`, { status: 'suspended' });
    await tenant.put(`/api/licenses/${created[3].id}`, { status: 'suspended' });

    const all = (await tenant.get('/api/licenses')).body;
    expect(all.pagination).toEqual({ page: 1, perPage: 20, total: 5, totalPages: 1 });
    expect(all.items.map((l: { id: string }) => l.id)).toEqual(created.map((l) => l.id).reverse());
    expect(all.items[0].product).toEqual({ id: one.id, name: 'One', slug: one.slug });

    const page2 = (await tenant.get('/api/licenses?per_page=2&page=2')).body;
    expect(page2.pagination).toEqual({ page: 2, perPage: 2, total: 5, totalPages: 3 });
    expect(page2.items.map((l: { id: string }) => l.id)).toEqual([created[2].id, created[1].id]);
    expect((await tenant.get('/api/licenses?per_page=2&page=9')).body.items).toEqual([]);

    expect(await total(tenant, '?status=suspended')).toBe(2);
    expect(await total(tenant, '?status=active')).toBe(3);
    expect(await total(tenant, `?product_id=${one.id}`)).toBe(3);
    const filtered = (await tenant.get(`/api/licenses?product_id=${one.id}&status=active`)).body;
    expect(filtered.pagination.total).toBe(2);
    expect(filtered.items.map((l: { id: string }) => l.id)).toEqual([created[4].id, created[0].id]);

    const byKey = (await tenant.get(`/api/licenses?search=${encodeURIComponent(created[3].licenseKey)}`)).body;
    expect(byKey.items.map((l: { id: string }) => l.id)).toEqual([created[3].id]);
    const byEmail = (await tenant.get('/api/licenses?search=ALICE@a.com')).body;
    expect(byEmail.items.map((l: { id: string }) => l.id)).toEqual([created[2].id, created[0].id]);
    expect((await tenant.get('/api/licenses?search=ca')).body.items.map((l: { id: string }) => l.id)).toEqual([created[3].id]);
    expect((await tenant.get(`/api/licenses?search=alice&product_id=${two.id}`)).body.pagination.total).toBe(1);

    const invalid = await tenant.get('/api/licenses?status=gone');
    expect(invalid.status).toBe(400);
    expect(invalid.body.error).toMatch(/status/);
    expect((await tenant.get('/api/licenses?page=0')).status).toBe(400);

    // Another tenant sees none of it, not even through a key search or product filter.
    const other = await newTenant();
    expect(await total(other)).toBe(0);
    expect(await total(other, `?search=${encodeURIComponent(created[0].licenseKey)}`)).toBe(0);
    expect(await total(other, `?product_id=${one.id}`)).toBe(0);
  });

  it('updates partially; status moves the counters; seats never drop below the activations', async () => {
    const tenant = await newTenant();
    const product = await newProduct(tenant);
    const license = await newLicense(tenant, { productId: product.id, customerEmail: 'u@example.com', seats: 3, expiresAt: '2040-01-01T00:00:00Z' });
    await activate(tenant, license.licenseKey, 'one.example.com');
    await activate(tenant, license.licenseKey, 'two.example.com');

    const tooFew = await tenant.put(`/api/licenses/${license.id}`, { seats: 1 });
    expect(tooFew.status).toBe(400);
    expect(tooFew.body.error).toMatch(/seats/);

    const updated = await tenant.put(`/api/licenses/${license.id}`, { seats: 2, status: 'suspended', expiresAt: null, customerName: 'New Name' });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject({ seats: 2, status: 'suspended', expiresAt: null, customerName: 'New Name', customerEmail: 'u@example.com', activatedCount: 2, licenseKey: license.licenseKey });
    expect(await total(tenant, '?status=active')).toBe(0);
    expect(await total(tenant, '?status=suspended')).toBe(1);
    expect(await total(tenant, `?product_id=${product.id}&status=suspended`)).toBe(1);
    expect((await validate(tenant, license.licenseKey)).body).toMatchObject({ valid: false });

    // A new e-mail links (here: creates) that e-mail's customer.
    const moved = await tenant.put(`/api/licenses/${license.id}`, { customerEmail: 'Other@Example.com' });
    expect(moved.body.customerEmail).toBe('other@example.com');
    expect(moved.body.customerId).not.toBe(license.customerId);
    expect((await tenant.get(`/api/customers/${moved.body.customerId}`)).body.email).toBe('other@example.com');

    for (const body of [{ status: 'paused' }, { seats: 0 }, { licenseKey: 'X' }, { expiresAt: 'soon' }]) {
      expect((await tenant.put(`/api/licenses/${license.id}`, body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await tenant.get(`/api/licenses/${license.id}`)).body).toMatchObject({ status: 'suspended', seats: 2 });
  });

  it('revokes: every active activation is deactivated in the same call and the key stops validating', async () => {
    const tenant = await newTenant();
    const product = await newProduct(tenant);
    const license = await newLicense(tenant, { productId: product.id, customerEmail: 'r@example.com', seats: 3 });
    await activate(tenant, license.licenseKey, 'a.example.com');
    await activate(tenant, license.licenseKey, 'b.example.com');
    expect((await tenant.get(`/api/licenses/${license.id}`)).body.activatedCount).toBe(2);

    const revoked = await tenant.post(`/api/licenses/${license.id}/revoke`);
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.body).toMatchObject({ id: license.id, status: 'revoked', activatedCount: 0 });
    const detail = (await tenant.get(`/api/licenses/${license.id}`)).body;
    expect(detail.activations).toHaveLength(2);
    for (const activation of detail.activations) {
      expect(activation).toMatchObject({ status: 'deactivated', deactivatedAt: expect.any(String) });
    }
    expect(await total(tenant, '?status=revoked')).toBe(1);
    expect(await total(tenant, '?status=active')).toBe(0);
    expect((await validate(tenant, license.licenseKey)).body).toEqual({ valid: false, error: 'License has been revoked', license_key: license.licenseKey });
    // Revoking again changes nothing.
    expect((await tenant.post(`/api/licenses/${license.id}/revoke`)).body).toMatchObject({ status: 'revoked', activatedCount: 0 });
  });

  it('revokes a license with more active activations than one transaction holds', async () => {
    const tenant = await newTenant();
    const product = await newProduct(tenant);
    const license = await newLicense(tenant, { productId: product.id, customerEmail: 'many@example.com', seats: 100 });
    const count = 95;
    for (let start = 0; start < count; start += 10) {
      await Promise.all(Array.from({ length: Math.min(10, count - start) }, (_, i) => activate(tenant, license.licenseKey, `site${start + i}.example.com`)));
    }
    expect((await tenant.get(`/api/licenses/${license.id}`)).body.activatedCount).toBe(count);
    const revoked = await tenant.post(`/api/licenses/${license.id}/revoke`);
    expect(revoked.body).toMatchObject({ status: 'revoked', activatedCount: 0 });
    const detail = (await tenant.get(`/api/licenses/${license.id}`)).body;
    expect(detail.activations).toHaveLength(count);
    expect(detail.activations.filter((a: { status: string }) => a.status !== 'deactivated')).toEqual([]);
    const active = await tenant.get(`/api/activations?license_id=${license.id}&status=active`);
    expect(active.status).toBe(200);
    expect(active.body.items).toEqual([]);
    // The tenant's activation counters moved with them.
    expect((await tenant.get('/api/activations?status=active')).body.pagination.total).toBe(0);
    expect((await tenant.get('/api/activations?status=deactivated')).body.pagination.total).toBe(count);
  });

  it('regenerates the key: the old key stops working at once, activations stay', async () => {
    const tenant = await newTenant();
    const product = await newProduct(tenant);
    const license = await newLicense(tenant, { productId: product.id, customerEmail: 'k@example.com', seats: 2 });
    await activate(tenant, license.licenseKey, 'keep.example.com');
    const res = await tenant.post(`/api/licenses/${license.id}/regenerate`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.id).toBe(license.id);
    expect(res.body.licenseKey).toMatch(KEY_GROUPS);
    expect(res.body.licenseKey).not.toBe(license.licenseKey);
    expect(res.body).toMatchObject({ activatedCount: 1, customerEmail: 'k@example.com', status: 'active', seats: 2 });

    const old = await validate(tenant, license.licenseKey);
    expect(old.status).toBe(404);
    expect(old.body).toEqual({ valid: false, error: 'License key not found' });
    expect((await validate(tenant, res.body.licenseKey)).body).toMatchObject({ valid: true });
    const detail = (await tenant.get(`/api/licenses/${license.id}`)).body;
    expect(detail.licenseKey).toBe(res.body.licenseKey);
    expect(detail.activations).toHaveLength(1);
    expect(await total(tenant)).toBe(1);
    expect(await total(tenant, `?search=${encodeURIComponent(license.licenseKey)}`)).toBe(0);
  });

  it('deletes a license with its activations; the key and the id are gone and the counters follow', async () => {
    const tenant = await newTenant();
    const product = await newProduct(tenant);
    const kept = await newLicense(tenant, { productId: product.id, customerEmail: 'd@example.com' });
    const license = await newLicense(tenant, { productId: product.id, customerEmail: 'd@example.com', seats: 2 });
    await activate(tenant, license.licenseKey, 'gone.example.com');
    expect((await tenant.delete(`/api/licenses/${license.id}`)).status).toBe(204);
    expect((await tenant.get(`/api/licenses/${license.id}`)).status).toBe(404);
    expect((await tenant.delete(`/api/licenses/${license.id}`)).status).toBe(404);
    expect((await validate(tenant, license.licenseKey)).status).toBe(404);
    const list = (await tenant.get('/api/licenses')).body;
    expect(list.pagination.total).toBe(1);
    expect(list.items.map((l: { id: string }) => l.id)).toEqual([kept.id]);
    expect(await total(tenant, '?status=active')).toBe(1);
    const activations = await tenant.get(`/api/activations?license_id=${license.id}`);
    expect(activations.status).toBe(200);
    expect(activations.body.items).toEqual([]);
    expect((await tenant.get('/api/activations')).body.pagination.total).toBe(0);
  });

  it("answers another tenant's license with 404 on every route", async () => {
    const owner = await newTenant();
    const product = await newProduct(owner);
    const license = await newLicense(owner, { productId: product.id, customerEmail: 'o@example.com' });
    const stranger = await newTenant();
    const calls = [
      stranger.get(`/api/licenses/${license.id}`),
      stranger.put(`/api/licenses/${license.id}`, { seats: 5 }),
      stranger.delete(`/api/licenses/${license.id}`),
      stranger.post(`/api/licenses/${license.id}/revoke`),
      stranger.post(`/api/licenses/${license.id}/regenerate`),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'License not found' });
    }
    expect((await owner.get(`/api/licenses/${license.id}`)).body).toMatchObject({ status: 'active', seats: 1, licenseKey: license.licenseKey });
  });

  it('expiry sweep: moves due active licenses to expired, leaves the rest', async () => {
    const tenant = await newTenant();
    const product = await newProduct(tenant);
    const past = new Date(Date.now() - 60_000).toISOString();
    const due = await newLicense(tenant, { productId: product.id, customerEmail: 'e@example.com', expiresAt: past });
    const dueButSuspended = await newLicense(tenant, { productId: product.id, customerEmail: 'e@example.com', expiresAt: past });
    await tenant.put(`/api/licenses/${dueButSuspended.id}`, { status: 'suspended' });
    const future = await newLicense(tenant, { productId: product.id, customerEmail: 'e@example.com', expiresAt: '2099-01-01T00:00:00Z' });
    const extended = await newLicense(tenant, { productId: product.id, customerEmail: 'e@example.com', expiresAt: past });
    await tenant.put(`/api/licenses/${extended.id}`, { expiresAt: '2099-01-01T00:00:00Z' });

    await sweepExpiredLicenses({ data: localData('expirySweep'), clock: systemClock });

    expect((await tenant.get(`/api/licenses/${due.id}`)).body.status).toBe('expired');
    expect((await tenant.get(`/api/licenses/${dueButSuspended.id}`)).body.status).toBe('suspended');
    expect((await tenant.get(`/api/licenses/${future.id}`)).body.status).toBe('active');
    expect((await tenant.get(`/api/licenses/${extended.id}`)).body.status).toBe('active');
    expect(await total(tenant, '?status=expired')).toBe(1);
    expect(await total(tenant, `?product_id=${product.id}&status=active`)).toBe(2);
    expect((await validate(tenant, due.licenseKey)).body).toMatchObject({ valid: false });

    // A second run finds nothing of this tenant's left to do.
    await sweepExpiredLicenses({ data: localData('expirySweep'), clock: systemClock });
    expect(await total(tenant, '?status=expired')).toBe(1);
  });

  it('reads a license past its expiry as expired everywhere at once, before any sweep (DECISIONS §22)', async () => {
    const tenant = await newTenant();
    const product = await newProduct(tenant);
    const past = new Date(Date.now() - 60_000).toISOString();
    const lapsed = await newLicense(tenant, { productId: product.id, customerEmail: 'lapsed@example.com', expiresAt: past });
    expect(lapsed.status).toBe('expired');
    const current = await newLicense(tenant, { productId: product.id, customerEmail: 'lapsed@example.com', expiresAt: '2099-01-01T00:00:00Z' });
    const soon = await newLicense(tenant, { productId: product.id, customerEmail: 'lapsed@example.com', expiresAt: new Date(Date.now() + 6000).toISOString() });

    expect((await tenant.get(`/api/licenses/${lapsed.id}`)).body.status).toBe('expired');
    const listed = (await tenant.get('/api/licenses')).body.items as { id: string; status: string }[];
    expect(Object.fromEntries(listed.map(({ id, status }) => [id, status]))).toEqual({ [lapsed.id]: 'expired', [current.id]: 'active', [soon.id]: 'active' });
    const byStatus = async (status: string) => ((await tenant.get(`/api/licenses?status=${status}`)).body.items as { id: string }[]).map(({ id }) => id).sort();
    expect(await byStatus('expired')).toEqual([lapsed.id]);
    expect(await byStatus('active')).toEqual([current.id, soon.id].sort());
    expect(await total(tenant, `?product_id=${product.id}&status=active`)).toBe(2);
    expect((await validate(tenant, lapsed.licenseKey)).body).toMatchObject({ valid: false, error: 'License has expired' });

    // One that lapses while nothing sweeps: its next read says so, and so do the status filters and their totals.
    await expect.poll(async () => (await tenant.get(`/api/licenses/${soon.id}`)).body.status, { timeout: 20_000, interval: 500 }).toBe('expired');
    expect(await byStatus('expired')).toEqual([lapsed.id, soon.id].sort());
    expect(await byStatus('active')).toEqual([current.id]);
    expect(await total(tenant, '?status=expired')).toBe(2);

    // The portal reads it so too.
    const key = await tenant.post('/api/api-keys', { name: 'portal' });
    const portal = await tenant.get('/v1/portal/licenses?email=lapsed%40example.com', { headers: { authorization: `Bearer ${key.body.key}` }, origin: null });
    const statuses = Object.fromEntries((portal.body.data as { id: string; status: string }[]).map(({ id, status }) => [id, status]));
    expect(statuses).toEqual({ [lapsed.id]: 'expired', [current.id]: 'active', [soon.id]: 'expired' });
  });
});
