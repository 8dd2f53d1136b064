import { describe, expect, it } from 'vitest';
import { Client } from '../../support/client.js';
import { body, changeInvoices, changePlan, fake, licenseOf, shop, subscribe, tellRenewal, tellSubscription, type Shop } from '../../support/plan-shop.js';
import { stripeEvent } from '../../support/stripe-events.js';

/** DECISIONS §20: plan changes name a plan on sale, are paid before they apply, and a second one replaces the first. */

async function portalOf(s: Shop) {
  const apiKey = await body(s.tenant.post('/api/api-keys', { name: 'Portal' }), 201);
  const portal = new Client();
  portal.bearer = apiKey.key;
  return (subscriptionId: string, email: string, planId: string) =>
    portal.post(`/v1/portal/subscriptions/${subscriptionId}/change-plan`, { email, planId }, { origin: null });
}

const subscriptionOf = async (s: Shop, customerId: string) => (await body(s.tenant.get(`/api/customers/${customerId}`))).subscriptions[0];
const itemAmount = async (stripeSubscriptionId: string) => (await fake.subscription(stripeSubscriptionId))!.items.data[0]!.price.unit_amount;

describe('plan changes name a plan on sale', () => {
  it('the portal takes only an active public plan, the management API an active one; retired or private is 404, nothing sent to Stripe', async () => {
    const s = await shop();
    const email = 'partner-seeker@example.com';
    const { license, subscription, subscriptionId } = await subscribe(s, email);
    const partner = await s.addPlan({ name: 'Partner', slug: 'partner', price: 0, siteLimit: 500, isPublic: false });
    const legacy = await s.addPlan({ name: 'Legacy', slug: 'legacy', price: 50, siteLimit: 20, isActive: false });
    const portalChange = await portalOf(s);

    for (const planId of [partner.id, legacy.id]) {
      const refused = await portalChange(subscriptionId, email, planId);
      expect([refused.status, refused.body]).toEqual([404, { error: 'Plan not found' }]);
    }
    const retired = await changePlan(s, subscriptionId, legacy.id);
    expect([retired.status, retired.body]).toEqual([404, { error: 'Plan not found' }]);
    expect(await fake.subscriptionUpdates(subscription.id)).toEqual([]);
    expect(await licenseOf(s, license.id)).toMatchObject({ planId: s.plans.basic.id, seats: 3 });

    // Another product's plan and a lifetime plan stay 400.
    const other = await body(s.tenant.post('/api/products', { name: 'Other Plugin', productType: 'plugin' }), 201);
    const foreign = await body(s.tenant.post(`/api/products/${other.id}/plans`, { name: 'Else', billingCycle: 'monthly', price: 20, currency: 'usd', siteLimit: 5 }), 201);
    const lifetime = await s.addPlan({ name: 'Forever', slug: 'forever', billingCycle: 'lifetime', price: 300, siteLimit: 3 });
    for (const planId of [foreign.id, lifetime.id]) {
      const refused = await changePlan(s, subscriptionId, planId);
      expect([refused.status, refused.body]).toEqual([400, { error: "planId must be a recurring plan of the subscription's product" }]);
    }

    // The vendor may move a customer to a private plan (a $0 plan is a downgrade: at the period's end).
    const moved = await body(changePlan(s, subscriptionId, partner.id));
    expect(moved.subscription).toMatchObject({ planId: s.plans.basic.id, pendingPlanId: partner.id });
  });
});

describe('plan changes are paid before they apply', () => {
  it('sends an upgrade with pending_if_incomplete; an unpaid one is 402 and changes nothing until Stripe applies it', async () => {
    const s = await shop();
    const { license, subscription, subscriptionId } = await subscribe(s, 'declined@example.com');
    await fake.setOutage(s.secretKey, 'cardDeclined');

    const unpaid = await changePlan(s, subscriptionId, s.plans.agency.id);
    expect([unpaid.status, unpaid.body]).toEqual([402, { error: 'Payment for the plan change failed' }]);
    expect((await fake.subscriptionUpdates(subscription.id)).at(-1)!.params).toMatchObject({ payment_behavior: 'pending_if_incomplete', proration_behavior: 'always_invoice' });
    const held = (await fake.subscription(subscription.id))!;
    expect(held.pending_update).not.toBeNull();
    expect(held.items.data[0]!.price.unit_amount).toBe(1000);
    expect(await licenseOf(s, license.id)).toMatchObject({ planId: s.plans.basic.id, seats: 3 });
    expect(await subscriptionOf(s, license.customerId)).toMatchObject({ planId: s.plans.basic.id, pendingPlanId: null });
    // Stripe tells of the subscription with its update pending, and of the invoice's failed payment: still nothing
    // changes (the period itself is paid: no grace, not past due).
    await tellSubscription(s, subscription.id);
    const [invoice] = await changeInvoices(s, subscription.id);
    await s.send(stripeEvent('invoice.payment_failed', { ...invoice!, period_end: subscription.items.data[0]!.current_period_end }));
    expect(await licenseOf(s, license.id)).toMatchObject({ planId: s.plans.basic.id, seats: 3, graceUntil: null });
    expect(await subscriptionOf(s, license.customerId)).toMatchObject({ status: 'active' });

    // The buyer's card works again and the invoice is paid: Stripe applies the update, and the license follows.
    await fake.setOutage(s.secretKey, null);
    expect((await fake.payInvoice(s.secretKey, held.latest_invoice as string)).status).toBe(200);
    await tellSubscription(s, subscription.id);
    expect(await licenseOf(s, license.id)).toMatchObject({ licenseKey: license.licenseKey, planId: s.plans.agency.id, seats: 10 });
  });

  it('keeps a pending downgrade when the upgrade asked for after it is not paid', async () => {
    const s = await shop();
    const studio = await s.addPlan({ name: 'Studio', slug: 'studio', price: 50, siteLimit: 20 });
    const { license, subscription, subscriptionId } = await subscribe(s, 'pending-then-declined@example.com', { plan: s.plans.agency });
    await body(changePlan(s, subscriptionId, s.plans.basic.id));
    await fake.setOutage(s.secretKey, 'cardDeclined');

    const unpaid = await changePlan(s, subscriptionId, studio.id);
    expect([unpaid.status, unpaid.body]).toEqual([402, { error: 'Payment for the plan change failed' }]);
    await fake.setOutage(s.secretKey, null);
    // Stripe bills the downgrade at renewal, as before; here it still waits.
    expect(await itemAmount(subscription.id)).toBe(1000);
    expect(await subscriptionOf(s, license.customerId)).toMatchObject({ planId: s.plans.agency.id, pendingPlanId: s.plans.basic.id });
    await tellRenewal(s, subscription.id);
    expect(await licenseOf(s, license.id)).toMatchObject({ planId: s.plans.basic.id, seats: 3 });
  });
});

describe('a second change while one is pending replaces it', () => {
  it('an upgrade after a pending downgrade charges the difference from the plan paid for, once', async () => {
    const s = await shop();
    const studio = await s.addPlan({ name: 'Studio', slug: 'studio', price: 50, siteLimit: 20 });
    const { license, subscription, subscriptionId } = await subscribe(s, 'twice@example.com', { plan: s.plans.agency });
    const down = await body(changePlan(s, subscriptionId, s.plans.basic.id));
    expect(down.subscription.pendingPlanId).toBe(s.plans.basic.id);

    const up = await body(changePlan(s, subscriptionId, studio.id));
    expect(up.subscription).toMatchObject({ planId: studio.id, pendingPlanId: null });
    expect(await licenseOf(s, license.id)).toMatchObject({ planId: studio.id, seats: 20 });
    // One invoice, for the rest of the period of Studio less what is left of Agency ($50 − $30), not of Basic ($50 − $10).
    const invoices = await changeInvoices(s, subscription.id);
    expect(invoices).toHaveLength(1);
    expect(invoices[0]!.amount_due).toBeGreaterThan(1990);
    expect(invoices[0]!.amount_due).toBeLessThanOrEqual(2000);
    expect(await itemAmount(subscription.id)).toBe(5000);
  });

  it('a second downgrade takes the first one\'s place, and asking for the current plan takes a pending one back', async () => {
    const s = await shop();
    const pro = await s.addPlan({ name: 'Pro', slug: 'pro', price: 20, siteLimit: 5 });
    const first = await subscribe(s, 'replaced@example.com', { plan: s.plans.agency });
    await body(changePlan(s, first.subscriptionId, s.plans.basic.id));
    const second = await body(changePlan(s, first.subscriptionId, pro.id));
    expect(second.subscription).toMatchObject({ planId: s.plans.agency.id, pendingPlanId: pro.id });
    expect(await itemAmount(first.subscription.id)).toBe(2000);
    await tellRenewal(s, first.subscription.id);
    expect(await licenseOf(s, first.license.id)).toMatchObject({ planId: pro.id, seats: 5 });

    const kept = await subscribe(s, 'kept@example.com', { plan: s.plans.agency });
    await body(changePlan(s, kept.subscriptionId, s.plans.basic.id));
    const back = await body(changePlan(s, kept.subscriptionId, s.plans.agency.id));
    expect(back.subscription).toMatchObject({ planId: s.plans.agency.id, pendingPlanId: null });
    expect(await itemAmount(kept.subscription.id)).toBe(3000);
    await tellRenewal(s, kept.subscription.id);
    expect(await licenseOf(s, kept.license.id)).toMatchObject({ planId: s.plans.agency.id, seats: 10 });
    expect(await changeInvoices(s, first.subscription.id)).toEqual([]);
    expect(await changeInvoices(s, kept.subscription.id)).toEqual([]);
    // Without a pending change the current plan is still 400.
    const same = await changePlan(s, kept.subscriptionId, s.plans.agency.id);
    expect([same.status, same.body]).toEqual([400, { error: 'The subscription is already on this plan' }]);
  });
});
