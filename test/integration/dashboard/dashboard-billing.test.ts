import { describe, expect, it } from 'vitest';
import { Client } from '../../support/client.js';
import { signedInDashboard, withoutChromium } from '../../support/dashboard-browser.js';
import { button, byRole, link, screenshot, seriousViolations, text, textbox } from '../../support/dashboard-page.js';
import { stripeEvent } from '../../support/stripe-events.js';
import { created, paidCheckout, shop, type Shop } from '../../support/stripe-shop.js';

/**
 * Plan changes and coupons in the dashboard (DECISIONS §15), in a real Chromium against the local stack and the fake
 * Stripe: what the forms do is what the service holds. Needs Chromium: skipped without it, except on CI.
 */
const buyer = new Client();
let s: Shop;
const { page, tenant, go, click, waitFor } = signedInDashboard(async () => (s = await shop()).tenant);

/**
 * A yearly subscription to the shop's Pro plan (5 seats) with two active sites, plans above and below it, a private
 * one and a retired one.
 */
async function subscribedLicense() {
  const plan = (fields: Record<string, unknown>) => created(tenant.post(`/api/products/${s.product.id}/plans`, { billingCycle: 'yearly', currency: 'usd', ...fields }));
  const plans = {
    pro: s.plans.yearly,
    agency: await plan({ name: 'Agency', price: 149, siteLimit: 10 }),
    solo: await plan({ name: 'Solo', price: 19, siteLimit: 1 }),
    partner: await plan({ name: 'Partner', price: 0, siteLimit: 50, isPublic: false }),
    legacy: await plan({ name: 'Legacy', price: 99, siteLimit: 20, isActive: false }),
  };
  const { session, subscription } = await paidCheckout(s, 'yearly');
  expect((await s.send(stripeEvent('checkout.session.completed', session))).status).toBe(200);
  const [license] = (await tenant.get('/api/licenses')).body.items;
  for (const domain of ['a.example.com', 'b.example.com']) {
    const activated = await buyer.post('/v1/licenses/activate', { license_key: license.licenseKey, domain }, { origin: null });
    expect(activated.status, activated.text).toBe(200);
  }
  return { license, plans, periodEnd: new Date(subscription!.items.data[0]!.current_period_end * 1000).toISOString() };
}

describe.skipIf(withoutChromium)('plan changes and coupons in the dashboard', () => {
  it("changes a customer's subscription plan: 409 with too many sites, an upgrade at once, a downgrade at period end", async () => {
    const { license, plans, periodEnd } = await subscribedLicense();
    await go(`/customers/${license.customerId}`);
    const plan = byRole('combobox', 'New plan');
    // What the service takes (DECISIONS §20): active plans, private ones too, never a retired one nor the current one.
    const offered = () => page.$eval(plan, (select) => Array.from((select as unknown as { options: ArrayLike<{ value: string }> }).options, (option) => option.value).sort());
    await expect.poll(offered, { timeout: 10_000 }).toEqual([plans.agency.id, plans.solo.id, plans.partner.id].sort());

    await page.select(plan, plans.solo.id);
    await click(button('Change plan'));
    await waitFor(text('Deactivate sites first: 2 active, the plan allows 1'));

    await page.select(plan, plans.agency.id);
    await click(button('Change plan'));
    await waitFor(text('Plan changed.'));
    await expect.poll(async () => (await tenant.get(`/api/licenses/${license.id}`)).body, { timeout: 10_000 }).toMatchObject({ planId: plans.agency.id, seats: 10, licenseKey: license.licenseKey });

    await page.select(plan, plans.pro.id);
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
    await click(button('Sales'));
    await click(link('Coupons'));
    await waitFor(text('No coupons yet.'));
    await page.locator(textbox('Code')).fill('LAUNCH20');
    await page.locator(textbox('Percent off')).fill('20');
    await page.select(byRole('combobox', 'Duration'), 'repeating');
    await page.locator(textbox('Months')).fill('6');
    await click(button('Create coupon'));
    await waitFor(text('20% off'));
    await waitFor(text('for 6 months'));
    const [coupon] = (await tenant.get('/api/coupons')).body.items;
    expect(coupon).toMatchObject({ code: 'LAUNCH20', percentOff: 20, duration: 'repeating', durationInMonths: 6, active: true });
    expect(await seriousViolations(page)).toEqual([]);

    await click(button('Deactivate'));
    await click(`dialog[open] ${button('Deactivate')}`);
    await waitFor(text('inactive'));
    expect((await tenant.get('/api/coupons')).body.items[0]).toMatchObject({ id: coupon.id, active: false });
  });

  it('turns on automatic tax for every checkout on the payment settings page', async () => {
    await go('/payment-provider');
    await click(byRole('checkbox', 'Automatic tax'));
    await expect.poll(async () => (await tenant.get('/api/payment-provider')).body, { timeout: 10_000 }).toMatchObject({ automaticTax: true, taxIdCollection: false });
  });
});
