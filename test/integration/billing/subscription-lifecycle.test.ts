import { describe, expect, it } from 'vitest';
import { emailsOnceSettled } from '../../support/mail.js';
import { activate, body, buyer, DAY, fake, licenseOf, openCheckout, shop, subscribe } from '../../support/plan-shop.js';
import { stripeEvent } from '../../support/stripe-events.js';
import { renewedSubscription, repricedSubscription } from '../../support/stripe-lifecycle-objects.js';
import { stripeId, stripeInvoice } from '../../support/stripe-objects.js';
import { Client } from '../../support/client.js';

describe('plan changes', () => {
  it('upgrades at once with always_invoice and downgrades at period end, keeping key and activations; 409 with too many sites', async () => {
    const s = await shop();
    const { license, subscription, subscriptionId } = await subscribe(s, 'up@example.com');
    await activate(license.licenseKey, ['a.example.com', 'b.example.com']);

    const up = await body(s.tenant.post(`/api/subscriptions/${subscriptionId}/change-plan`, { planId: s.plans.agency.id }));
    expect(up.subscription).toMatchObject({ planId: s.plans.agency.id, planName: 'Agency', price: 30, pendingPlanId: null });
    const [upgrade] = await fake.subscriptionUpdates(subscription.id);
    expect(upgrade!.params).toMatchObject({ proration_behavior: 'always_invoice', payment_behavior: 'pending_if_incomplete', metadata: { plan_id: s.plans.agency.id } });
    // A price of the plan's own Stripe product, tagged with the plan (what Stripe's events name it by).
    expect((await fake.subscription(subscription.id))!.items.data[0]!.price).toMatchObject({ unit_amount: 3000, product: s.plans.agency.id, metadata: { plan_id: s.plans.agency.id } });
    expect(await licenseOf(s, license.id)).toMatchObject({ licenseKey: license.licenseKey, planId: s.plans.agency.id, seats: 10, activatedCount: 2 });

    // Stripe's own event for the upgrade, twice: already applied, nothing changes.
    await s.send(stripeEvent('customer.subscription.updated', (await fake.subscription(subscription.id))!));
    expect(await licenseOf(s, license.id)).toMatchObject({ seats: 10 });

    const tooSmall = await s.tenant.post(`/api/products/${s.product.id}/plans`, { name: 'Solo', slug: 'solo', billingCycle: 'monthly', price: 5, currency: 'usd', siteLimit: 1 });
    const refused = await s.tenant.post(`/api/subscriptions/${subscriptionId}/change-plan`, { planId: tooSmall.body.id });
    expect([refused.status, refused.body]).toEqual([409, { error: 'Deactivate sites first: 2 active, the plan allows 1' }]);

    const down = await body(s.tenant.post(`/api/subscriptions/${subscriptionId}/change-plan`, { planId: s.plans.basic.id }));
    const periodEnd = new Date(subscription.items.data[0]!.current_period_end * 1000).toISOString();
    expect(down).toMatchObject({ effectiveAt: periodEnd, subscription: { planId: s.plans.agency.id, pendingPlanId: s.plans.basic.id } });
    expect((await fake.subscriptionUpdates(subscription.id)).at(-1)!.params).toMatchObject({ proration_behavior: 'none', metadata: { plan_id: s.plans.basic.id } });
    // Stripe tells of the new price at once: the license keeps its plan and seats until the period ends.
    await s.send(stripeEvent('customer.subscription.updated', (await fake.subscription(subscription.id))!));
    expect(await licenseOf(s, license.id)).toMatchObject({ planId: s.plans.agency.id, seats: 10 });

    const renewed = renewedSubscription((await fake.subscription(subscription.id))!, subscription.items.data[0]!.current_period_end, subscription.items.data[0]!.current_period_end + 30 * DAY);
    await s.send(stripeEvent('customer.subscription.updated', renewed));
    expect(await licenseOf(s, license.id)).toMatchObject({ licenseKey: license.licenseKey, planId: s.plans.basic.id, seats: 3, activatedCount: 2 });
    const customer = await body(s.tenant.get(`/api/customers/${license.customerId}`));
    expect(customer.subscriptions[0]).toMatchObject({ planId: s.plans.basic.id, pendingPlanId: null });
  });

  it('applies a price changed in Stripe, and the portal changes a customer\'s own plan only', async () => {
    const s = await shop();
    const { license, subscription, subscriptionId } = await subscribe(s, 'stripe-side@example.com');
    await s.send(stripeEvent('customer.subscription.updated', repricedSubscription(subscription, 3000, s.plans.agency.id)));
    expect(await licenseOf(s, license.id)).toMatchObject({ licenseKey: license.licenseKey, planId: s.plans.agency.id, seats: 10 });

    const apiKey = await body(s.tenant.post('/api/api-keys', { name: 'Portal' }), 201);
    const portal = new Client();
    portal.bearer = apiKey.key;
    const stranger = await portal.post(`/v1/portal/subscriptions/${subscriptionId}/change-plan`, { email: 'someone@example.com', planId: s.plans.yearly.id }, { origin: null });
    expect([stranger.status, stranger.body]).toEqual([404, { error: 'Subscription not found' }]);
    // Monthly to yearly is an upgrade (a longer interval), even at a lower price per year.
    const own = await body(portal.post(`/v1/portal/subscriptions/${subscriptionId}/change-plan`, { email: 'Stripe-Side@example.com', planId: s.plans.yearly.id }, { origin: null }));
    expect(own.data.subscription).toMatchObject({ planId: s.plans.yearly.id, billingCycle: 'yearly' });
    expect(await licenseOf(s, license.id)).toMatchObject({ planId: s.plans.yearly.id, seats: 3 });
  });
});

describe('coupons and tax', () => {
  it('makes a coupon in Stripe, applies promo as the session discount, refuses a bad or deactivated code, and passes the tax settings', async () => {
    const s = await shop({ allowPromotionCodes: true });
    await body(s.tenant.patch('/api/payment-provider', { automaticTax: true, taxIdCollection: true }));
    const coupon = await body(s.tenant.post('/api/coupons', { code: 'LAUNCH20', percentOff: 20, duration: 'once', maxRedemptions: 5 }), 201);
    expect(coupon).toMatchObject({ code: 'LAUNCH20', percentOff: 20, active: true });
    expect((await s.tenant.post('/api/coupons', { code: 'launch20', amountOff: 5, currency: 'usd', duration: 'forever' })).status).toBe(409);

    const discounted = await openCheckout(s, s.plans.basic.id, { promo: 'launch20' });
    expect(discounted.res.status, discounted.res.text).toBe(303);
    const params = (await fake.session(discounted.sessionId!))!.params as any;
    expect(params.discounts[0].promotion_code).toMatch(/^promo_/);
    expect(params.allow_promotion_codes).toBeUndefined();
    expect(params).toMatchObject({ automatic_tax: { enabled: 'true' }, tax_id_collection: { enabled: 'true' } });

    const typed = await openCheckout(s, s.plans.basic.id);
    expect((await fake.session(typed.sessionId!))!.params).toMatchObject({ allow_promotion_codes: 'true' });

    const unknown = await openCheckout(s, s.plans.basic.id, { promo: 'NOPE' });
    expect([unknown.res.status, unknown.res.body]).toEqual([400, { error: 'Invalid promotion code' }]);
    expect((await body(s.tenant.delete(`/api/coupons/${coupon.id}`))).active).toBe(false);
    const inactive = await openCheckout(s, s.plans.basic.id, { promo: 'LAUNCH20' });
    expect([inactive.res.status, inactive.res.body]).toEqual([400, { error: 'Invalid promotion code' }]);
    expect((await body(s.tenant.get('/api/coupons'))).items).toEqual([expect.objectContaining({ id: coupon.id, active: false })]);
  });
});

describe('trials', () => {
  it('a checkout trial issues one license to the trial end, and the first paid invoice moves it to the period end keeping the key', async () => {
    const s = await shop({ trialDays: 14 });
    const { license, subscription, opened } = await subscribe(s, 'trial@example.com', { trialDays: 14 });
    expect((opened.params as any).subscription_data.trial_period_days).toBe('14');
    const trialEnd = new Date(subscription.trial_end! * 1000).toISOString();
    expect(license).toMatchObject({ expiresAt: trialEnd, trialEndsAt: trialEnd, seats: 3 });
    const end = subscription.trial_end! + 30 * DAY;
    await s.send(stripeEvent('invoice.paid', stripeInvoice({ subscription: subscription.id, billingReason: 'subscription_cycle', start: subscription.trial_end!, end, amountPaid: 1000 })));
    const licenses = (await body(s.tenant.get('/api/licenses'))).items;
    expect(licenses).toEqual([expect.objectContaining({ licenseKey: license.licenseKey, expiresAt: new Date(end * 1000).toISOString() })]);
  });

  it('a no-card trial e-mails one license; a second is 409; a plan without trial days is 400; the later purchase keeps the key', async () => {
    const s = await shop({ trialDays: 7 });
    const email = `${stripeId('nocard')}@example.com`;
    const start = (mail: string, plan = 'basic') => buyer.post('/public/v1/trials', { public_key: s.publicKey, plan, email: mail }, { origin: null });
    expect(await body(start(email), 201)).toEqual({ sent: true });
    const again = await start(email.toUpperCase());
    expect([again.status, again.body]).toEqual([409, { error: 'A trial was already started for this e-mail' }]);
    const none = await start('other@example.com', 'agency');
    expect([none.status, none.body]).toEqual([400, { error: 'This plan has no trial' }]);

    const [trial] = (await body(s.tenant.get('/api/licenses'))).items;
    expect(trial).toMatchObject({ customerEmail: email, seats: 3, planId: s.plans.basic.id });
    expect(Date.parse(trial.expiresAt) - Date.now()).toBeGreaterThan(6.9 * DAY * 1000);
    expect(trial.trialEndsAt).toBe(trial.expiresAt);
    expect(await emailsOnceSettled((mail) => mail.text.includes(trial.licenseKey), 1)).toHaveLength(1);

    const { license } = await subscribe(s, email);
    expect(license).toMatchObject({ id: trial.id, licenseKey: trial.licenseKey, status: 'active' });
    expect((await body(s.tenant.get('/api/licenses'))).items).toHaveLength(1);
  });
});
