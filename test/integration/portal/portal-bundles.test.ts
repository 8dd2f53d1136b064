/** A bundle (DECISIONS §23) sold through checkout, in the overview and in the customer portal: one key, every included product. */
import { describe, expect, inject, it } from 'vitest';
import { Client, newTenant, uniqueEmail } from '../../support/client.js';
import { fakeStripeClient, stripeTestKey } from '../../support/fake-stripe.js';
import { newProduct, newRelease, plugin } from '../../support/licensing-fixtures.js';
import { deliver, stripeEvent } from '../../support/stripe-events.js';
import { paidSession, stripeId } from '../../support/stripe-objects.js';

const fake = fakeStripeClient(inject('stripeUrl'));
const webhookSecret = 'whsec_dGVzdHNlY3JldHRlc3RzZWNyZXQ=';

async function body(res: Promise<{ status: number; body: any; text: string }>, status = 200) {
  const { status: actual, body: value, text } = await res;
  expect(actual, text).toBe(status);
  return value;
}

describe('bundles in checkout, the overview and the portal', () => {
  it("a bundle's plan sells one license of the bundle, its revenue the bundle's; the portal shows its products and a download of each", async () => {
    const tenant = await newTenant();
    const [first, second] = [await newProduct(tenant), await newProduct(tenant)];
    const bundle = await newProduct(tenant, { productType: 'bundle', includes: [first.id, second.id] });
    const releases = [await newRelease(tenant, first.id, { version: '1.1.0' }), await newRelease(tenant, second.id, { version: '2.2.0' })];
    const plan = await body(tenant.post(`/api/products/${bundle.id}/plans`, { name: 'All access', billingCycle: 'lifetime', price: 199, currency: 'usd', siteLimit: 5 }), 201);
    await body(tenant.put('/api/payment-provider', { provider: 'stripe', secretKey: stripeTestKey(), webhookSecret }));

    // The buyer checks out on the bundle's public key; Stripe reports the payment.
    const email = uniqueEmail('bundle-buyer');
    const opened = await plugin().get(`/public/v1/checkout/${plan.id}?${new URLSearchParams({ public_key: bundle.public_key, email })}`, { origin: null });
    expect(opened.status, opened.text).toBe(303);
    const sessionId = /\/(cs_test_\w+)$/.exec(opened.headers.get('location')!)![1]!;
    const session = paidSession((await fake.session(sessionId))!.session, { email, name: 'Buyer', amountTotal: 19900, invoice: stripeId('in') });
    const delivered = await deliver(`/v1/webhooks/stripe/${tenant.userId}`, stripeEvent('checkout.session.completed', session), webhookSecret);
    expect([delivered.status, delivered.body.outcome], delivered.text).toEqual([200, 'processed']);

    const licenses = (await body(tenant.get(`/api/licenses?product_id=${bundle.id}`))).items;
    expect(licenses).toHaveLength(1);
    const [license] = licenses;
    expect(license).toMatchObject({ productId: bundle.id, planId: plan.id, seats: 5, product: { id: bundle.id, name: bundle.name } });
    for (const product of [first, second]) {
      const validated = await plugin().post('/v1/licenses/validate', { license_key: license.licenseKey, product_slug: product.slug }, { origin: null });
      expect(validated.body).toMatchObject({ valid: true, product: { id: product.id } });
    }

    // The overview reports the sale as the bundle's, not as any included product's.
    const revenueOf = async (productId: string) => (await body(tenant.get(`/api/analytics/overview?product_id=${productId}`))).revenue.total;
    expect([await revenueOf(bundle.id), await revenueOf(first.id), await revenueOf(second.id)]).toEqual([199, 0, 0]);

    const apiKey = await body(tenant.post('/api/api-keys', { name: 'Portal server' }), 201);
    const portal = new Client();
    portal.bearer = apiKey.key;
    const shown = (await body(portal.get(`/v1/portal/licenses?email=${encodeURIComponent(email)}`))).data;
    expect(shown).toEqual([
      expect.objectContaining({
        id: license.id,
        productName: bundle.name,
        productSlug: bundle.slug,
        products: [first, second].map(({ name, slug }) => ({ name, slug })),
      }),
    ]);
    const downloads = (await body(portal.get(`/v1/portal/downloads?email=${encodeURIComponent(email)}`))).data;
    expect(downloads.map((d: { productSlug: string; releaseId: string }) => [d.productSlug, d.releaseId])).toEqual([
      [first.slug, releases[0]!.id],
      [second.slug, releases[1]!.id],
    ]);

    // A bundled product deleted: the license lists, and downloads, only the other.
    expect((await tenant.delete(`/api/products/${second.id}`)).status).toBe(204);
    expect((await body(portal.get(`/v1/portal/licenses?email=${encodeURIComponent(email)}`))).data[0].products).toEqual([{ name: first.name, slug: first.slug }]);
    expect((await body(portal.get(`/v1/portal/downloads?email=${encodeURIComponent(email)}`))).data.map((d: { productSlug: string }) => d.productSlug)).toEqual([first.slug]);
  });
});
