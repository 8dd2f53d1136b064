import { describe, expect, it } from 'vitest';
import { newTenant, type Client } from '../../support/client.js';

async function newCustomer(tenant: Client, body: Record<string, unknown>) {
  const res = await tenant.post('/api/customers', body);
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const ids = (page: { items: { id: string }[] }) => page.items.map((c) => c.id);

describe('customers', () => {
  it('creates a customer with every field; get adds licenses, payments and subscriptions', async () => {
    const tenant = await newTenant();
    const body = {
      email: 'Jane@Example.com',
      firstName: 'Jane',
      lastName: 'Doe',
      company: 'Acme',
      phone: '+31 20 123 4567',
      street: 'Main St 1',
      city: 'Amsterdam',
      state: 'NH',
      postalCode: '1011 AB',
      country: 'NL',
      timezone: 'Europe/Amsterdam',
      metadata: { plan: 'gold', tags: ['a', 'b'], nested: { level: 2 } },
    };
    const customer = await newCustomer(tenant, body);
    expect(customer).toEqual({
      ...body,
      id: expect.stringMatching(/^cus_[a-z2-7]{24}$/),
      email: 'jane@example.com',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const minimal = await newCustomer(tenant, { email: 'min@example.com' });
    expect(minimal).toMatchObject({ firstName: null, company: null, metadata: null });
    expect((await tenant.get(`/api/customers/${customer.id}`)).body).toEqual({ ...customer, licenses: [], payments: [], subscriptions: [] });
  });

  it('keeps e-mails unique per tenant (409), case-insensitively, with one winner under concurrency', async () => {
    const tenant = await newTenant();
    await newCustomer(tenant, { email: 'dup@example.com' });
    const duplicate = await tenant.post('/api/customers', { email: 'DUP@example.com' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error).toMatch(/already exists/);
    const race = await Promise.all(Array.from({ length: 5 }, () => tenant.post('/api/customers', { email: 'race@example.com' })));
    expect(race.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
    expect((await tenant.get('/api/customers')).body.pagination.total).toBe(2);
    // Another tenant may have a customer with the same e-mail.
    await newCustomer(await newTenant(), { email: 'dup@example.com' });
  });

  it('validates input with 400 and writes nothing', async () => {
    const tenant = await newTenant();
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 8; i++) deep = { next: deep };
    const cases: [unknown, RegExp][] = [
      [{ firstName: 'A' }, /email is required/],
      [{ email: 'nope' }, /email/],
      [{ email: 'a@example.com', firstName: 7 }, /firstName/],
      [{ email: 'a@example.com', owner: 'x' }, /Unknown field: owner/],
      [{ email: 'a@example.com', metadata: ['x'] }, /metadata/],
      [{ email: 'a@example.com', metadata: 'x' }, /metadata/],
      [{ email: 'a@example.com', metadata: deep }, /metadata: must nest at most 8 levels/],
      [{ email: 'a@example.com', metadata: { blob: 'x'.repeat(9000) } }, /metadata: must be at most 8192 bytes/],
      [{ email: 'a@example.com', company: 'x'.repeat(201) }, /company/],
      [{ email: 'a@example.com', country: 'Narnia' }, /^country: must be an ISO 3166-1 alpha-2 country code, e.g. US$/],
      [{ email: 'a@example.com', country: 'EU' }, /^country: must be an ISO 3166-1 alpha-2 country code/],
      [{ email: 'a@example.com', timezone: 'Mars/Phobos' }, /^timezone: must be an IANA time zone name, e.g. Europe\/Amsterdam$/],
      [{ email: 'a@example.com', timezone: '+01:00' }, /^timezone: must be an IANA time zone name/],
    ];
    for (const [body, message] of cases) {
      const res = await tenant.post('/api/customers', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatch(message);
    }
    expect((await tenant.get('/api/customers')).body.pagination.total).toBe(0);
  });

  it('keeps a country as its ISO code, upper-cased, and a time zone as its IANA name (DECISIONS §22)', async () => {
    const tenant = await newTenant();
    const customer = await newCustomer(tenant, { email: 'where@example.com', country: 'nl', timezone: 'America/Argentina/Buenos_Aires' });
    expect(customer).toMatchObject({ country: 'NL', timezone: 'America/Argentina/Buenos_Aires' });
    const updated = await tenant.put(`/api/customers/${customer.id}`, { country: 'jp', timezone: 'UTC' });
    expect(updated.body).toMatchObject({ country: 'JP', timezone: 'UTC' });
  });

  it('lists newest first with totals and pages, and searches name or e-mail prefixes', async () => {
    const tenant = await newTenant();
    const ann = await newCustomer(tenant, { email: 'ann@alpha.com', firstName: 'Ann', lastName: 'Zed' });
    const bob = await newCustomer(tenant, { email: 'bob@beta.com', firstName: 'Bob', lastName: 'Annist' });
    const cat = await newCustomer(tenant, { email: 'cat@gamma.com', firstName: 'Cathy' });
    const all = (await tenant.get('/api/customers')).body;
    expect(all.pagination).toEqual({ page: 1, perPage: 20, total: 3, totalPages: 1 });
    expect(ids(all)).toEqual([cat.id, bob.id, ann.id]);
    const page2 = (await tenant.get('/api/customers?per_page=2&page=2')).body;
    expect(page2.pagination).toEqual({ page: 2, perPage: 2, total: 3, totalPages: 2 });
    expect(ids(page2)).toEqual([ann.id]);

    expect(ids((await tenant.get('/api/customers?search=ANN')).body)).toEqual([ann.id]);
    expect(ids((await tenant.get('/api/customers?search=bob%20ann')).body)).toEqual([bob.id]);
    expect(ids((await tenant.get('/api/customers?search=cat@')).body)).toEqual([cat.id]);
    expect(ids((await tenant.get('/api/customers?search=zzz')).body)).toEqual([]);
    expect((await tenant.get('/api/customers?search=a')).body.pagination.total).toBe(1);
    expect((await tenant.get('/api/customers?page=0')).status).toBe(400);
    expect((await (await newTenant()).get('/api/customers?search=ann')).body.pagination.total).toBe(0);
  });

  it('updates partially; null clears; a new e-mail is claimed and the old one freed', async () => {
    const tenant = await newTenant();
    const customer = await newCustomer(tenant, { email: 'old@example.com', firstName: 'Old', company: 'Acme', metadata: { a: 1 } });
    await newCustomer(tenant, { email: 'taken@example.com' });

    const res = await tenant.put(`/api/customers/${customer.id}`, { firstName: 'New', company: null, metadata: null });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ email: 'old@example.com', firstName: 'New', company: null, metadata: null });
    expect(ids((await tenant.get('/api/customers?search=new')).body)).toEqual([customer.id]);
    expect((await tenant.get('/api/customers?search=old')).body.items.map((c: { email: string }) => c.email)).toEqual(['old@example.com']);

    const taken = await tenant.put(`/api/customers/${customer.id}`, { email: 'Taken@example.com' });
    expect(taken.status).toBe(409);
    const moved = await tenant.put(`/api/customers/${customer.id}`, { email: 'Fresh@example.com' });
    expect(moved.status).toBe(200);
    expect(moved.body.email).toBe('fresh@example.com');
    expect((await tenant.post('/api/customers', { email: 'fresh@example.com' })).status).toBe(409);
    expect((await tenant.post('/api/customers', { email: 'old@example.com' })).status).toBe(201);

    for (const body of [{ email: null }, { email: 'x' }, { metadata: [1] }, { id: 'cus_x' }]) {
      expect((await tenant.put(`/api/customers/${customer.id}`, body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await tenant.get(`/api/customers/${customer.id}`)).body).toMatchObject({ email: 'fresh@example.com', firstName: 'New' });
  });

  it("shows the licenses that carry the customer's e-mail; delete frees the e-mail and keeps the licenses", async () => {
    const tenant = await newTenant();
    const product = (await tenant.post('/api/products', { name: 'Tool', productType: 'app' })).body;
    const customer = await newCustomer(tenant, { email: 'owner@example.com', firstName: 'Owner' });
    const first = (await tenant.post('/api/licenses', { productId: product.id, customerEmail: 'OWNER@example.com' })).body;
    const second = (await tenant.post('/api/licenses', { productId: product.id, customerEmail: 'owner@example.com' })).body;
    expect(first.customerId).toBe(customer.id);
    const detail = (await tenant.get(`/api/customers/${customer.id}`)).body;
    expect(detail.licenses.map((l: { id: string }) => l.id)).toEqual([second.id, first.id]);
    expect(detail.licenses[0]).toMatchObject({ licenseKey: second.licenseKey, product: { id: product.id, name: 'Tool' } });

    expect((await tenant.delete(`/api/customers/${customer.id}`)).status).toBe(204);
    expect((await tenant.get(`/api/customers/${customer.id}`)).status).toBe(404);
    expect((await tenant.delete(`/api/customers/${customer.id}`)).status).toBe(404);
    expect((await tenant.get('/api/customers')).body.pagination.total).toBe(0);
    expect((await tenant.get(`/api/licenses/${first.id}`)).body.customerEmail).toBe('owner@example.com');
    // The e-mail is free again: a new customer with it sees the same licenses.
    const again = await newCustomer(tenant, { email: 'owner@example.com' });
    expect((await tenant.get(`/api/customers/${again.id}`)).body.licenses).toHaveLength(2);
  });

  it("answers another tenant's customer with 404", async () => {
    const owner = await newTenant();
    const customer = await newCustomer(owner, { email: 'mine@example.com' });
    const stranger = await newTenant();
    for (const res of await Promise.all([
      stranger.get(`/api/customers/${customer.id}`),
      stranger.put(`/api/customers/${customer.id}`, { firstName: 'X' }),
      stranger.delete(`/api/customers/${customer.id}`),
    ])) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Customer not found' });
    }
    expect((await owner.get(`/api/customers/${customer.id}`)).body.firstName).toBeNull();
  });
});
