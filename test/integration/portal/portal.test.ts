import { describe, expect, inject, it } from 'vitest';
import { newId } from '../../../shared/platform/ids.js';
import { Client, newTenant, uniqueEmail } from '../../support/client.js';
import { fakeStripeClient, stripeTestKey } from '../../support/fake-stripe.js';
import { newRelease, zipBytes, type Tenant } from '../../support/licensing-fixtures.js';
import { deliver, stripeEvent } from '../../support/stripe-events.js';
import { paidSession, stripeId, stripeSubscription, unixNow } from '../../support/stripe-objects.js';

const fake = fakeStripeClient(inject('stripeUrl'));
const base = inject('baseUrl');
const webhookSecret = 'whsec_dGVzdHNlY3JldHRlc3RzZWNyZXQ=';

async function body(res: Promise<{ status: number; body: any; text: string }>, status = 201) {
  const { status: actual, body: value, text } = await res;
  expect(actual, text).toBe(status);
  return value;
}

/** A client of the portal: the vendor's server with its secret key. */
function portalClient(key: string) {
  const client = new Client();
  client.bearer = key;
  return client;
}

/**
 * A purchase through the commerce path: the buyer opens checkout on the public API, pays, and Stripe sends the
 * vendor's webhook `checkout.session.completed` (signed with the vendor's secret). Returns the records it made.
 */
async function purchase(tenant: Tenant, product: { id: string; public_key: string }, email: string, secretKey: string) {
  const plan = await body(tenant.post(`/api/products/${product.id}/plans`, { name: 'Pro', slug: 'pro', billingCycle: 'yearly', price: 49.5, currency: 'usd', siteLimit: 2 }));
  const query = new URLSearchParams({ public_key: product.public_key, email }).toString();
  const opened = await new Client().get(`/public/v1/checkout/${plan.id}?${query}`, { origin: null });
  expect(opened.status, opened.text).toBe(303);
  const sessionId = /\/(cs_test_\w+)$/.exec(opened.headers.get('location')!)![1]!;
  const checkoutSession = (await fake.session(sessionId))!.session;
  const subscription = stripeSubscription({ start: unixNow(), end: unixNow() + 365 * 86_400 });
  await fake.putSubscription(secretKey, subscription);
  const session = paidSession(checkoutSession, { email, name: 'Buyer', amountTotal: 4950, invoice: stripeId('in'), subscription: subscription.id });
  const delivered = await deliver(`/v1/webhooks/stripe/${tenant.userId}`, stripeEvent('checkout.session.completed', session), webhookSecret);
  expect([delivered.status, delivered.body.outcome], delivered.text).toEqual([200, 'processed']);
  return { providerSubscriptionId: subscription.id };
}

/**
 * A vendor with a product (two releases, the newer one real bytes), Stripe connected, a secret key, and a customer
 * holding two hand-made licenses of the product (one activated on a site) and a third bought through checkout, with
 * its payment and subscription. `connected: false` disconnects Stripe after the purchase.
 */
async function vendorWithCustomer(options: { connected?: boolean } = {}) {
  const tenant: Tenant = await newTenant();
  const product = await body(tenant.post('/api/products', { name: 'Portal Plugin', productType: 'plugin' }));
  await newRelease(tenant, product.id, { version: '1.0.0' }, zipBytes(300, 0x61), 'old.zip');
  const bytes = zipBytes(2048, 0x62);
  const latest = await newRelease(tenant, product.id, { version: '1.2.0', releaseNotes: 'Faster' }, bytes, 'portal-plugin-1.2.0.zip');
  const email = uniqueEmail('buyer');
  const license = await body(tenant.post('/api/licenses', { productId: product.id, customerEmail: email, customerName: 'Buyer', seats: 3 }));
  await body(tenant.post('/api/licenses', { productId: product.id, customerEmail: email, seats: 1 }));
  await body(new Client().post('/v1/licenses/activate', { license_key: license.licenseKey, domain: 'shop.example.com' }, { origin: null }), 200);
  const customers = await body(tenant.get(`/api/customers?search=${encodeURIComponent(email)}`), 200);
  const customerId = customers.items[0].id as string;
  const secretKey = stripeTestKey();
  await body(tenant.put('/api/payment-provider', { provider: 'stripe', secretKey, webhookSecret }), 200);
  const { providerSubscriptionId } = await purchase(tenant, product, email, secretKey);
  if (options.connected === false) expect((await tenant.delete('/api/payment-provider')).status).toBe(204);
  const customer = await body(tenant.get(`/api/customers/${customerId}`), 200);
  const [paymentId, subscriptionId] = [customer.payments[0].id as string, customer.subscriptions[0].id as string];
  const apiKey = await body(tenant.post('/api/api-keys', { name: 'Portal server' }));
  return { tenant, product, latest, bytes, email, license, customerId, secretKey, providerSubscriptionId, paymentId, subscriptionId, apiKey, portal: portalClient(apiKey.key) };
}

const q = (email: string) => `email=${encodeURIComponent(email)}`;

describe('customer portal reads', () => {
  it('answers overview, licenses, downloads, invoices and subscriptions of one customer, the e-mail in any case', async () => {
    const v = await vendorWithCustomer();
    const shouted = q(v.email.toUpperCase());

    const overview = await body(v.portal.get(`/v1/portal/overview?${shouted}`), 200);
    expect(overview).toEqual({ data: { email: v.email, activeLicenses: 3, totalLicenses: 3, activeSubscriptions: 1 } });

    const licenses = (await body(v.portal.get(`/v1/portal/licenses?${shouted}`), 200)).data;
    expect(licenses).toHaveLength(3);
    expect(licenses.find((l: any) => l.id === v.license.id)).toEqual({
      id: v.license.id, licenseKey: v.license.licenseKey, status: 'active', seats: 3, siteCount: 1, stagingCount: 0, expiresAt: null,
      createdAt: v.license.createdAt, productName: 'Portal Plugin', productSlug: v.product.slug, products: [{ name: 'Portal Plugin', slug: v.product.slug }],
    });

    const downloads = (await body(v.portal.get(`/v1/portal/downloads?${shouted}`), 200)).data;
    expect(downloads).toHaveLength(1);
    const [download] = downloads;
    expect(download).toMatchObject({
      productName: 'Portal Plugin', productSlug: v.product.slug, releaseId: v.latest.id, version: '1.2.0',
      fileName: 'portal-plugin-1.2.0.zip', fileSize: 2048, releaseNotes: 'Faster',
    });
    expect(Date.parse(download.releasedAt)).not.toBeNaN();
    const link = new URL(download.downloadUrl);
    expect(`${link.origin}${link.pathname}`).toBe(`${base}/dl/${v.latest.id}`);
    const expires = Number(link.searchParams.get('expires'));
    expect(expires * 1000 - Date.now()).toBeGreaterThan(24 * 3600_000 - 60_000);
    expect(expires * 1000 - Date.now()).toBeLessThanOrEqual(24 * 3600_000);
    expect(link.searchParams.get('signature')).toMatch(/^[0-9a-f]{64}$/);

    // The link leads to the storage stand-in, which serves the uploaded bytes under their own name; the download is counted.
    const redirect = await fetch(download.downloadUrl, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    const file = await fetch(redirect.headers.get('location')!);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="portal-plugin-1.2.0.zip"');
    expect(Buffer.from(await file.arrayBuffer()).equals(v.bytes)).toBe(true);
    const releases = await body(v.tenant.get(`/api/products/${v.product.id}/releases`), 200);
    const counted = (releases.items ?? releases).find((r: any) => r.id === v.latest.id);
    expect(counted.downloadCount).toBe(1);

    expect(await body(v.portal.get(`/v1/portal/invoices?${shouted}`), 200)).toEqual({
      data: [{ id: v.paymentId, amount: 49.5, currency: 'USD', status: 'completed', paymentMethod: 'stripe', invoicePdfUrl: null, productName: 'Portal Plugin', createdAt: expect.any(String) }],
    });
    const subscriptions = await body(v.portal.get(`/v1/portal/subscriptions?${shouted}`), 200);
    expect(subscriptions.data).toEqual([
      {
        id: v.subscriptionId, status: 'active', currentPeriodStart: expect.any(String), currentPeriodEnd: expect.any(String), cancelAtPeriodEnd: false,
        canceledAt: null, planId: expect.stringMatching(/^pln_/), planName: 'Pro', billingCycle: 'yearly', price: 49.5, currency: 'USD', productName: 'Portal Plugin',
        pendingPlanId: null, pendingPlanEffectiveAt: null,
      },
    ]);

    // The key's use is recorded.
    const keys = await body(v.tenant.get('/api/api-keys'), 200);
    expect((keys.items ?? keys).find((k: any) => k.id === v.apiKey.id).lastUsedAt).not.toBeNull();
  });

  it('lists no download for a revoked license, nor for a product without a published release', async () => {
    const v = await vendorWithCustomer();
    const other = await body(v.tenant.post('/api/products', { name: 'No Releases', productType: 'plugin' }));
    await body(v.tenant.post('/api/licenses', { productId: other.id, customerEmail: v.email }));
    expect((await body(v.portal.get(`/v1/portal/downloads?${q(v.email)}`), 200)).data.map((d: any) => d.productSlug)).toEqual([v.product.slug]);
    const licenses = (await body(v.portal.get(`/v1/portal/licenses?${q(v.email)}`), 200)).data;
    for (const license of licenses.filter((l: any) => l.productSlug === v.product.slug)) await body(v.tenant.post(`/api/licenses/${license.id}/revoke`), 200);
    expect((await body(v.portal.get(`/v1/portal/downloads?${q(v.email)}`), 200)).data).toEqual([]);
    expect((await body(v.portal.get(`/v1/portal/overview?${q(v.email)}`), 200)).data).toMatchObject({ activeLicenses: 1, totalLicenses: 4 });
  });

  it('answers an e-mail with no customer with empty lists and zero counts', async () => {
    const v = await vendorWithCustomer();
    const nobody = q(uniqueEmail('nobody'));
    expect((await body(v.portal.get(`/v1/portal/overview?${nobody}`), 200)).data).toMatchObject({ activeLicenses: 0, totalLicenses: 0, activeSubscriptions: 0 });
    for (const list of ['licenses', 'downloads', 'invoices', 'subscriptions']) {
      expect(await body(v.portal.get(`/v1/portal/${list}?${nobody}`), 200), list).toEqual({ data: [] });
    }
  });

  it("shows another vendor's key nothing of the same e-mail", async () => {
    const v = await vendorWithCustomer();
    const other = await newTenant();
    const otherKey = await body(other.post('/api/api-keys', { name: 'Other' }));
    const portal = portalClient(otherKey.key);
    expect((await body(portal.get(`/v1/portal/overview?${q(v.email)}`), 200)).data).toEqual({ email: v.email, activeLicenses: 0, totalLicenses: 0, activeSubscriptions: 0 });
    for (const list of ['licenses', 'downloads', 'invoices', 'subscriptions']) {
      expect(await body(portal.get(`/v1/portal/${list}?${q(v.email)}`), 200), list).toEqual({ data: [] });
    }
    const cancel = await portal.post(`/v1/portal/subscriptions/${v.subscriptionId}/cancel?${q(v.email)}`);
    expect([cancel.status, cancel.body]).toEqual([404, { error: 'Subscription not found' }]);
    expect(await fake.subscriptionUpdates(v.providerSubscriptionId)).toEqual([]);
  });
});

describe('customer portal refusals', () => {
  it('takes a secret API key only, with the messages of the management API', async () => {
    const v = await vendorWithCustomer();
    const path = `/v1/portal/overview?${q(v.email)}`;
    const refused = async (client: Client, message: string) => {
      const res = await client.get(path, { origin: null });
      expect([res.status, res.body], message).toEqual([401, { error: message }]);
    };
    await refused(new Client(), 'Authentication required');
    // The dashboard's session cookie is not a portal credential.
    await refused(v.tenant, 'Authentication required');
    await refused(portalClient(v.product.public_key), 'A secret API key (sk_) is required');
    await refused(portalClient(`sk_${'a'.repeat(32)}`), 'Invalid API key');
    const basic = await new Client().get(path, { headers: { authorization: `Basic ${v.apiKey.key}` } });
    expect(basic.status).toBe(401);
    await body(v.tenant.delete(`/api/api-keys/${v.apiKey.id}`), 204);
    await refused(v.portal, 'Invalid API key');
  });

  it("lets a key change only what its role may (as on /api): a viewer's key reads, and is 403 on every change", async () => {
    const v = await vendorWithCustomer();
    const viewer = portalClient((await body(v.tenant.post('/api/api-keys', { name: 'Read only', role: 'viewer' }))).key);
    expect((await viewer.get(`/v1/portal/licenses?${q(v.email)}`)).body).toEqual((await v.portal.get(`/v1/portal/licenses?${q(v.email)}`)).body);
    const refused = { status: 403, body: { error: 'Your role does not allow this' } };
    expect(await viewer.post(`/v1/portal/subscriptions/${v.subscriptionId}/cancel?${q(v.email)}`)).toMatchObject(refused);
    expect(await viewer.post(`/v1/portal/subscriptions/${v.subscriptionId}/change-plan`, { email: v.email, planId: 'pln_whatever123456' })).toMatchObject(refused);
    expect(await viewer.post(`/v1/portal/licenses/${v.license.id}/transfer`, { email: v.email, toEmail: uniqueEmail('taker') })).toMatchObject(refused);
    expect(await fake.subscriptionUpdates(v.providerSubscriptionId)).toEqual([]);
    expect((await v.tenant.get(`/api/licenses/${v.license.id}`)).body.customerEmail).toBe(v.email.toLowerCase());
    // Support may transfer a license (licenses: transfer), not change a subscription (billing).
    const support = portalClient((await body(v.tenant.post('/api/api-keys', { name: 'Desk', role: 'support' }))).key);
    expect(await support.post(`/v1/portal/subscriptions/${v.subscriptionId}/cancel?${q(v.email)}`)).toMatchObject(refused);
    expect((await support.post(`/v1/portal/licenses/${v.license.id}/transfer`, { email: v.email, toEmail: uniqueEmail('taker') })).status).toBe(200);
  });

  it('requires email, and answers unknown or malformed ids with 404', async () => {
    const v = await vendorWithCustomer();
    for (const path of ['/v1/portal/overview', '/v1/portal/licenses?email=', '/v1/portal/downloads?email=%20']) {
      const res = await v.portal.get(path);
      expect([res.status, res.body.error], path).toEqual([400, 'email is required']);
    }
    const missing = await v.portal.post(`/v1/portal/subscriptions/${v.subscriptionId}/cancel`);
    expect([missing.status, missing.body.error]).toEqual([400, 'email is required']);
    for (const id of [newId('sub'), 'sub_short', newId('pay'), 'x'.repeat(500)]) {
      const res = await v.portal.post(`/v1/portal/subscriptions/${id}/cancel?${q(v.email)}`);
      expect([res.status, res.body], id).toEqual([404, { error: 'Subscription not found' }]);
    }
    const unknownRoute = await v.portal.get(`/v1/portal/nothing?${q(v.email)}`);
    expect(unknownRoute.status).toBe(404);
  });
});

describe('customer portal cancel', () => {
  it("flags the customer's subscription at Stripe once, on the vendor's key, then records it", async () => {
    const v = await vendorWithCustomer();
    const res = await v.portal.post(`/v1/portal/subscriptions/${v.subscriptionId}/cancel?${q(v.email)}`);
    expect([res.status, res.body]).toEqual([200, { data: { id: v.subscriptionId, cancelAtPeriodEnd: true } }]);
    expect(await fake.subscriptionUpdates(v.providerSubscriptionId)).toEqual([{ key: v.secretKey, params: { cancel_at_period_end: 'true' } }]);
    const [subscription] = (await body(v.portal.get(`/v1/portal/subscriptions?${q(v.email)}`), 200)).data;
    expect(subscription).toMatchObject({ id: v.subscriptionId, cancelAtPeriodEnd: true, status: 'active' });
  });

  it("refuses another customer's subscription of the same vendor, before calling Stripe", async () => {
    const v = await vendorWithCustomer();
    const stranger = uniqueEmail('stranger');
    await body(v.tenant.post('/api/licenses', { productId: v.product.id, customerEmail: stranger }));
    const res = await v.portal.post(`/v1/portal/subscriptions/${v.subscriptionId}/cancel?${q(stranger)}`);
    expect([res.status, res.body]).toEqual([404, { error: 'Subscription not found' }]);
    expect(await fake.subscriptionUpdates(v.providerSubscriptionId)).toEqual([]);
  });

  it('answers 502 and records nothing when Stripe fails', async () => {
    const v = await vendorWithCustomer();
    await fake.setOutage(v.secretKey, 'error');
    const res = await v.portal.post(`/v1/portal/subscriptions/${v.subscriptionId}/cancel?${q(v.email)}`);
    expect([res.status, res.body]).toEqual([502, { error: 'Payment provider unavailable' }]);
    const [subscription] = (await body(v.portal.get(`/v1/portal/subscriptions?${q(v.email)}`), 200)).data;
    expect(subscription.cancelAtPeriodEnd).toBe(false);
  });

  it('answers 400 when the vendor has no payment provider connected', async () => {
    const v = await vendorWithCustomer({ connected: false });
    const res = await v.portal.post(`/v1/portal/subscriptions/${v.subscriptionId}/cancel?${q(v.email)}`);
    expect([res.status, res.body]).toEqual([400, { error: 'No payment provider is connected' }]);
    expect(await fake.subscriptionUpdates(v.providerSubscriptionId)).toEqual([]);
  });
});

describe('signed download links (/dl)', () => {
  async function linkOf(v: Awaited<ReturnType<typeof vendorWithCustomer>>) {
    const [download] = (await body(v.portal.get(`/v1/portal/downloads?${q(v.email)}`), 200)).data;
    return new URL(download.downloadUrl);
  }
  const get = (url: URL | string) => fetch(url, { redirect: 'manual' }).then(async (res) => ({ status: res.status, body: await res.json().catch(() => null) }));

  it('refuses a tampered signature, another release id, a changed or past expiry, and a missing part with 403', async () => {
    const v = await vendorWithCustomer();
    const link = await linkOf(v);
    const forbidden = { status: 403, body: { error: 'Invalid or expired download link' } };
    const variant = (change: (url: URL) => void) => {
      const url = new URL(link);
      change(url);
      return get(url);
    };
    const signature = link.searchParams.get('signature')!;
    const flipped = `${signature[0] === 'a' ? 'b' : 'a'}${signature.slice(1)}`;
    expect(await variant((url) => url.searchParams.set('signature', flipped))).toEqual(forbidden);
    expect(await variant((url) => url.searchParams.set('signature', signature.toUpperCase()))).toEqual(forbidden);
    expect(await variant((url) => (url.pathname = `/dl/${newId('rel')}`))).toEqual(forbidden);
    expect(await variant((url) => (url.pathname = '/dl/not-a-release'))).toEqual(forbidden);
    expect(await variant((url) => url.searchParams.set('expires', String(Math.floor(Date.now() / 1000) - 60)))).toEqual(forbidden);
    expect(await variant((url) => url.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600)))).toEqual(forbidden);
    expect(await variant((url) => url.searchParams.delete('signature'))).toEqual(forbidden);
    expect(await variant((url) => url.searchParams.delete('expires'))).toEqual(forbidden);
    expect((await get(link)).status).toBe(302);
  });

  it('answers 404 once the release is unpublished or deleted', async () => {
    const v = await vendorWithCustomer();
    const link = await linkOf(v);
    await body(v.tenant.put(`/api/products/${v.product.id}/releases/${v.latest.id}`, { status: 'draft' }), 200);
    expect(await get(link)).toEqual({ status: 404, body: { error: 'Release not found' } });
    await body(v.tenant.delete(`/api/products/${v.product.id}/releases/${v.latest.id}`), 204);
    expect(await get(link)).toEqual({ status: 404, body: { error: 'Release not found' } });
  });

  it('answers 404 once the product is deleted, as every public surface treats a deleted product', async () => {
    const v = await vendorWithCustomer();
    const link = await linkOf(v);
    await body(v.tenant.delete(`/api/products/${v.product.id}`), 204);
    expect(await get(link)).toEqual({ status: 404, body: { error: 'Release not found' } });
  });
});
