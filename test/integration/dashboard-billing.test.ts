import { existsSync } from 'node:fs';
import type { Browser, Page } from 'puppeteer-core';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Client, newTenant } from '../support/client.js';
import { button, byRole, CHROMIUM, desktopPage, launchChromium, link, screenshot, seriousViolations, text, textbox } from '../support/dashboard-page.js';
import { fakeStripeClient, stripeTestKey } from '../support/fake-stripe.js';
import { deliver, stripeEvent } from '../support/stripe-events.js';
import { paidSession, stripeId, stripeSubscription, unixNow } from '../support/stripe-objects.js';

/**
 * Plan changes and coupons in the dashboard (DECISIONS §15), in a real Chromium against the local stack and the fake
 * Stripe: what the forms do is what the service holds. Needs Chromium: skipped without it, except on CI.
 */
const available = existsSync(CHROMIUM);
const base = inject('baseUrl');
const fake = fakeStripeClient(inject('stripeUrl'));
const buyer = new Client();

let browser: Browser | undefined;
let page: Page;
let tenant: Awaited<ReturnType<typeof newTenant>>;

beforeAll(async () => {
  if (!available && !process.env.CI) return;
  tenant = await newTenant();
  browser = await launchChromium();
  page = await desktopPage(browser);
  await page.setCookie({ name: 'session', value: tenant.cookie!, url: base, httpOnly: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

const go = (path: string) => page.goto(`${base}${path}`, { waitUntil: 'networkidle0' });
const click = (selector: string) => page.locator(selector).click();
const waitFor = (selector: string) => page.waitForSelector(selector);
const ok = async <T>(res: Promise<{ status: number; body: T; text: string }>) => {
  const { status, body, text: raw } = await res;
  expect(status, raw).toBeLessThan(300);
  return body;
};

/** A monthly subscription bought through checkout on the fake Stripe, with two active sites. */
async function subscribedLicense() {
  const product = await ok(tenant.post('/api/products', { name: 'Billing Plugin', productType: 'plugin', slug: stripeId('bill').replace('_', '-') }));
  const plan = (fields: Record<string, unknown>) => ok(tenant.post(`/api/products/${product.id}/plans`, { billingCycle: 'monthly', currency: 'usd', ...fields }));
  const plans = {
    basic: await plan({ name: 'Basic', slug: 'basic', price: 10, siteLimit: 3 }),
    agency: await plan({ name: 'Agency', slug: 'agency', price: 30, siteLimit: 10 }),
    solo: await plan({ name: 'Solo', slug: 'solo', price: 5, siteLimit: 1 }),
  };
  const secretKey = stripeTestKey();
  const webhookSecret = `whsec_${Buffer.from(stripeId('secret')).toString('base64')}`;
  const connected = await ok(tenant.put('/api/payment-provider', { provider: 'stripe', secretKey, webhookSecret }));
  const checkout = await buyer.get(`/public/v1/checkout/${plans.basic.id}?public_key=${product.public_key}`, { origin: null });
  const opened = (await fake.session(/\/(cs_test_\w+)$/.exec(checkout.headers.get('location') ?? '')![1]!))!;
  const start = unixNow();
  const subscription: Stripe.Subscription = stripeSubscription({ start, end: start + 30 * 24 * 3600, amount: 1000, interval: 'month', metadata: opened.session.metadata ?? {} });
  await fake.putSubscription(secretKey, subscription);
  const paid = stripeEvent('checkout.session.completed', paidSession(opened.session, { email: 'payer@example.com', amountTotal: 1000, invoice: stripeId('in'), subscription: subscription.id }));
  expect((await deliver(new URL(connected.webhookUrl).pathname, paid, webhookSecret)).status).toBe(200);
  const [license] = (await ok(tenant.get('/api/licenses'))).items;
  for (const domain of ['a.example.com', 'b.example.com']) await ok(buyer.post('/v1/licenses/activate', { license_key: license.licenseKey, domain }, { origin: null }));
  return { license, plans, periodEnd: new Date(subscription.items.data[0]!.current_period_end * 1000).toISOString() };
}

describe.skipIf(!available && !process.env.CI)('plan changes and coupons in the dashboard', () => {
  it("changes a customer's subscription plan: 409 with too many sites, an upgrade at once, a downgrade at period end", async () => {
    const { license, plans, periodEnd } = await subscribedLicense();
    await go(`/customers/${license.customerId}`);
    const plan = byRole('combobox', 'New plan');

    await page.select(plan, plans.solo.id);
    await click(button('Change plan'));
    await waitFor(text('Deactivate sites first: 2 active, the plan allows 1'));

    await page.select(plan, plans.agency.id);
    await click(button('Change plan'));
    await waitFor(text('Plan changed.'));
    await expect.poll(async () => (await tenant.get(`/api/licenses/${license.id}`)).body, { timeout: 10_000 }).toMatchObject({ planId: plans.agency.id, seats: 10, licenseKey: license.licenseKey });

    await page.select(plan, plans.basic.id);
    await click(button('Change plan'));
    const day = await page.evaluate((iso) => new Date(iso).toLocaleDateString(), periodEnd);
    await waitFor(text(`Downgrade scheduled: takes effect on ${day}.`));
    await waitFor(text(`(plan change on ${day})`));
    expect((await tenant.get(`/api/licenses/${license.id}`)).body).toMatchObject({ planId: plans.agency.id, seats: 10 });
    await screenshot(page, 'subscription-plan-change');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('creates a coupon from the navigation and deactivates it', async () => {
    await go('/overview');
    await click(link('Coupons'));
    await waitFor(text('No coupons yet.'));
    await page.locator(textbox('Code')).fill('LAUNCH20');
    await page.locator(textbox('Percent off')).fill('20');
    await page.select(byRole('combobox', 'Duration'), 'repeating');
    await page.locator(textbox('Months')).fill('6');
    await click(button('Create coupon'));
    await waitFor(text('20% off'));
    await waitFor(text('for 6 months'));
    const [coupon] = (await ok(tenant.get('/api/coupons'))).items;
    expect(coupon).toMatchObject({ code: 'LAUNCH20', percentOff: 20, duration: 'repeating', durationInMonths: 6, active: true });
    expect(await seriousViolations(page)).toEqual([]);

    await click(button('Deactivate'));
    await click(`dialog[open] ${button('Deactivate')}`);
    await waitFor(text('inactive'));
    expect((await ok(tenant.get('/api/coupons'))).items[0]).toMatchObject({ id: coupon.id, active: false });
  });
});
