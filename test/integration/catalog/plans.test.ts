import { describe, expect, it } from 'vitest';
import { newTenant } from '../../support/client.js';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

const gold = { name: 'Gold Plan', billingCycle: 'yearly', price: 49.5, currency: 'usd', siteLimit: 5, shortDescription: 'Five sites' };

async function productOf(tenant: Tenant) {
  const res = await tenant.post('/api/products', { name: 'Plan Host', productType: 'plugin' });
  expect(res.status).toBe(201);
  return res.body as { id: string };
}

describe('plans', () => {
  it('creates a plan with a generated slug, upper-case currency and defaults, and counts it on the product', async () => {
    const tenant = await newTenant();
    const product = await productOf(tenant);
    const res = await tenant.post(`/api/products/${product.id}/plans`, gold);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^pln_[a-z2-7]{24}$/),
      productId: product.id,
      name: 'Gold Plan',
      slug: 'gold-plan',
      billingCycle: 'yearly',
      price: 49.5,
      currency: 'USD',
      siteLimit: 5,
      shortDescription: 'Five sites',
      isActive: true,
      isPublic: true,
      channel: 'stable',
      trialDays: 0,
      allowPromotionCodes: false,
      features: [],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect((await tenant.get(`/api/products/${product.id}/plans/${res.body.id}`)).body).toEqual(res.body);
    const minimal = await tenant.post(`/api/products/${product.id}/plans`, { name: 'Solo', billingCycle: 'lifetime', price: 0, currency: 'EUR' });
    expect(minimal.status).toBe(201);
    expect(minimal.body).toMatchObject({ siteLimit: 1, shortDescription: null, isActive: true, isPublic: true });
    expect((await tenant.get(`/api/products/${product.id}`)).body.plansCount).toBe(2);
    const listed = await tenant.get(`/api/products/${product.id}/plans`);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({ items: [res.body, minimal.body] });
  });

  it('keeps slugs unique per product: a taken slug is 409 and writes nothing; a generated one gets a suffix', async () => {
    const tenant = await newTenant();
    const product = await productOf(tenant);
    const other = await productOf(tenant);
    const plans = `/api/products/${product.id}/plans`;
    expect((await tenant.post(plans, { ...gold, slug: 'gold' })).status).toBe(201);
    const taken = await tenant.post(plans, { ...gold, slug: 'gold' });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toBe('Slug is already taken');
    expect((await tenant.post(`/api/products/${other.id}/plans`, { ...gold, slug: 'gold' })).status).toBe(201);
    expect((await tenant.post(plans, { ...gold, name: 'Gold' })).body.slug).toBe('gold-2');
    expect((await tenant.get(plans)).body.items).toHaveLength(2);
    expect((await tenant.get(`/api/products/${product.id}`)).body.plansCount).toBe(2);
  });

  it('gives concurrent creations of one slug exactly one winner, counted once', async () => {
    const tenant = await newTenant();
    const product = await productOf(tenant);
    const results = await Promise.all(
      Array.from({ length: 4 }, () => tenant.post(`/api/products/${product.id}/plans`, { ...gold, slug: 'race' })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    expect((await tenant.get(`/api/products/${product.id}`)).body.plansCount).toBe(1);
  });

  it('validates input and writes nothing on a bad request', async () => {
    const tenant = await newTenant();
    const product = await productOf(tenant);
    const plans = `/api/products/${product.id}/plans`;
    const cases: [unknown, RegExp][] = [
      [{ ...gold, name: undefined }, /name is required/],
      [{ ...gold, billingCycle: undefined }, /billingCycle is required/],
      [{ ...gold, price: undefined }, /price is required/],
      [{ ...gold, currency: undefined }, /currency is required/],
      [{ ...gold, billingCycle: 'weekly' }, /billingCycle/],
      [{ ...gold, price: -1 }, /price/],
      [{ ...gold, price: '49' }, /price/],
      [{ ...gold, price: 1.234 }, /price: must have at most two decimal places/],
      [{ ...gold, currency: 'dollars' }, /currency/],
      [{ ...gold, siteLimit: 0 }, /siteLimit/],
      [{ ...gold, siteLimit: 1.5 }, /siteLimit/],
      [{ ...gold, slug: 'Not A Slug' }, /slug/],
      [{ ...gold, isActive: 'yes' }, /isActive/],
      [{ ...gold, perks: [] }, /Unknown field: perks/],
    ];
    for (const [body, message] of cases) {
      const res = await tenant.post(plans, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatch(message);
    }
    expect((await tenant.get(plans)).body.items).toEqual([]);
    expect((await tenant.get(`/api/products/${product.id}`)).body.plansCount).toBe(0);
  });

  it('updates partially, moves the slug, clears the description with null', async () => {
    const tenant = await newTenant();
    const product = await productOf(tenant);
    const plans = `/api/products/${product.id}/plans`;
    const plan = (await tenant.post(plans, gold)).body;
    const other = (await tenant.post(plans, { ...gold, slug: 'other' })).body;
    const res = await tenant.put(`${plans}/${plan.id}`, { price: 59, currency: 'eur', isPublic: false, slug: 'gold-new', shortDescription: null });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Gold Plan', price: 59, currency: 'EUR', isPublic: false, isActive: true, slug: 'gold-new', shortDescription: null });
    expect((await tenant.get(`${plans}/${plan.id}`)).body).toEqual(res.body);
    // The old slug is free again; the new one is held.
    expect((await tenant.put(`${plans}/${other.id}`, { slug: 'gold-plan' })).body.slug).toBe('gold-plan');
    expect((await tenant.put(`${plans}/${other.id}`, { slug: 'gold-new' })).status).toBe(409);
    expect((await tenant.put(`${plans}/${plan.id}`, { siteLimit: -3 })).status).toBe(400);
    expect((await tenant.get(`${plans}/${plan.id}`)).body.siteLimit).toBe(5);
  });

  it('deletes with 204, frees the slug and uncounts the plan', async () => {
    const tenant = await newTenant();
    const product = await productOf(tenant);
    const plans = `/api/products/${product.id}/plans`;
    const plan = (await tenant.post(plans, gold)).body;
    expect((await tenant.delete(`${plans}/${plan.id}`)).status).toBe(204);
    expect((await tenant.delete(`${plans}/${plan.id}`)).status).toBe(404);
    expect((await tenant.get(`${plans}/${plan.id}`)).status).toBe(404);
    expect((await tenant.get(`/api/products/${product.id}`)).body.plansCount).toBe(0);
    expect((await tenant.post(plans, gold)).body.slug).toBe('gold-plan');
  });

  it("isolates tenants on every plan route: another tenant's product or plan is 404", async () => {
    const owner = await newTenant();
    const intruder = await newTenant();
    const product = await productOf(owner);
    const plans = `/api/products/${product.id}/plans`;
    const plan = (await owner.post(plans, gold)).body;
    expect((await intruder.get(plans)).status).toBe(404);
    expect((await intruder.post(plans, gold)).status).toBe(404);
    expect((await intruder.get(`${plans}/${plan.id}`)).status).toBe(404);
    expect((await intruder.put(`${plans}/${plan.id}`, { price: 1 })).status).toBe(404);
    expect((await intruder.delete(`${plans}/${plan.id}`)).status).toBe(404);
    // The intruder's own product does not unlock the owner's plan either.
    const own = await productOf(intruder);
    expect((await intruder.put(`/api/products/${own.id}/plans/${plan.id}`, { price: 1 })).status).toBe(404);
    expect((await intruder.delete(`/api/products/${own.id}/plans/${plan.id}`)).status).toBe(404);
    expect((await owner.get(`${plans}/${plan.id}`)).body).toEqual(plan);
    expect((await owner.get(`/api/products/${product.id}`)).body.plansCount).toBe(1);
  });

  it('answers 404 on the plans of a deleted product', async () => {
    const tenant = await newTenant();
    const product = await productOf(tenant);
    const plans = `/api/products/${product.id}/plans`;
    const plan = (await tenant.post(plans, gold)).body;
    expect((await tenant.delete(`/api/products/${product.id}`)).status).toBe(204);
    for (const res of [
      await tenant.get(plans),
      await tenant.post(plans, gold),
      await tenant.get(`${plans}/${plan.id}`),
      await tenant.put(`${plans}/${plan.id}`, { price: 1 }),
      await tenant.delete(`${plans}/${plan.id}`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('Product not found');
    }
  });
});
