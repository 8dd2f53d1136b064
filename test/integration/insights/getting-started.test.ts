import { describe, expect, inject, it } from 'vitest';
import { dayOf } from '../../../shared/insights/analytics/days.js';
import { writeUsage } from '../../../shared/insights/analytics/usage-writer.js';
import type { Config } from '../../../shared/platform/config.js';
import { Client, newTenant } from '../../support/client.js';
import { stripeTestKey } from '../../support/fake-stripe.js';
import { newLicense, newProduct, newRelease, plugin } from '../../support/licensing-fixtures.js';
import { localData } from '../../support/table.js';

/**
 * A new account's first steps (DECISIONS §22), each ticked from what the account holds as it happens, and a product's
 * first activation, which its dashboard page waits for.
 */
const base = inject('baseUrl');

const stepsDone = async (tenant: Client) => {
  const res = await tenant.get('/api/getting-started');
  expect(res.status, res.text).toBe(200);
  return Object.fromEntries((res.body.steps as { step: string; done: boolean }[]).map(({ step, done }) => [step, done]));
};

describe('the first steps of an account', () => {
  it('ticks each step as it happens: a product, a release, a first activation, Stripe, a checkout a buyer opened', async () => {
    const tenant = await newTenant();
    expect((await tenant.get('/api/getting-started')).body).toEqual({
      steps: ['createProduct', 'uploadRelease', 'connectPlugin', 'connectStripe', 'shareCheckoutLink'].map((step) => ({ step, done: false })),
      productId: null,
    });

    const product = await newProduct(tenant);
    expect(await stepsDone(tenant)).toEqual({ createProduct: true, uploadRelease: false, connectPlugin: false, connectStripe: false, shareCheckoutLink: false });
    expect((await tenant.get('/api/getting-started')).body.productId).toBe(product.id);

    // A draft is not a release anyone can install.
    await newRelease(tenant, product.id, { version: '1.0.0', status: 'draft' });
    expect((await stepsDone(tenant)).uploadRelease).toBe(false);
    await newRelease(tenant, product.id, { version: '1.0.1' });
    expect((await stepsDone(tenant)).uploadRelease).toBe(true);

    expect((await tenant.get(`/api/products/${product.id}/first-activation`)).body).toEqual({ firstActivation: null });
    const license = await newLicense(tenant, product.id, { seats: 3 });
    for (const domain of ['first.example.com', 'second.example.com']) {
      expect((await plugin().post('/v1/licenses/activate', { license_key: license.licenseKey, domain }, { origin: null })).status).toBe(200);
    }
    const { body } = await tenant.get(`/api/products/${product.id}/first-activation`);
    expect(body).toEqual({ firstActivation: { site: 'first.example.com', licenseId: license.id, activatedAt: expect.any(String) } });
    expect((await stepsDone(tenant)).connectPlugin).toBe(true);

    const plan = await tenant.post(`/api/products/${product.id}/plans`, { name: 'Pro', billingCycle: 'yearly', price: 49, currency: 'usd', siteLimit: 3 });
    expect(plan.status, plan.text).toBe(201);
    const webhookSecret = `whsec_${Buffer.from('getting-started').toString('base64')}`;
    expect((await tenant.put('/api/payment-provider', { provider: 'stripe', secretKey: stripeTestKey(), webhookSecret })).status).toBe(200);
    expect(await stepsDone(tenant)).toMatchObject({ connectStripe: true, shareCheckoutLink: false });

    const checkout = await new Client(base).get(`/public/v1/checkout/${plan.body.id}?public_key=${product.public_key}`, { origin: null });
    expect(checkout.status, checkout.text).toBe(303);
    expect(Object.values(await stepsDone(tenant))).toEqual([true, true, true, true, true]);
  });

  it('names a machine by the name its client reported, and answers 404 for a product of another account', async () => {
    const tenant = await newTenant();
    const product = await newProduct(tenant, { productType: 'app' });
    const license = await newLicense(tenant, product.id);
    const activated = await plugin().post('/v1/licenses/activate', { license_key: license.licenseKey, machine: 'f'.repeat(32), name: 'Ana’s MacBook' }, { origin: null });
    expect(activated.status, activated.text).toBe(200);
    expect((await tenant.get(`/api/products/${product.id}/first-activation`)).body.firstActivation).toMatchObject({ site: 'Ana’s MacBook' });
    const stranger = await newTenant();
    expect((await stranger.get(`/api/products/${product.id}/first-activation`)).status).toBe(404);
    expect((await stranger.get('/api/getting-started')).body.steps.every((step: { done: boolean }) => !step.done)).toBe(true);
  });

  it('takes a product’s first site from the sites seen checking in, for sites that activated before it was recorded', async () => {
    const tenant = await newTenant();
    const product = await newProduct(tenant);
    // What the usage writer receives for a site's first check of a day (an activation older than the milestone, or imported).
    const writer = { data: localData('usageWriter'), config: { analytics: { retentionDays: 90 } } as Config, clock: { now: () => new Date() } };
    const seen = (site: string, n: number) => ({
      messageId: `seen-${n}`,
      receiveCount: 1,
      body: JSON.stringify({ kind: 'install', productId: product.id, tenantId: tenant.userId, day: dayOf(new Date()), site }),
    });
    expect(await writeUsage(writer, [seen('old-site.example.com', 1)])).toEqual([]);
    expect(await writeUsage(writer, [seen('machine:0123456789abcdef', 2), seen('later.example.com', 3)])).toEqual([]);
    expect((await tenant.get(`/api/products/${product.id}/first-activation`)).body.firstActivation).toMatchObject({ site: 'old-site.example.com', licenseId: null });
    expect((await stepsDone(tenant)).connectPlugin).toBe(true);
  });
});
