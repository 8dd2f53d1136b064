import { describe, expect, it } from 'vitest';
import { couponParams, promotionCodeParams } from '../../../shared/billing/coupons/coupon-mapping.js';
import { planChangeParams, subscriptionItemId, subscriptionPlanId, subscriptionTrialEnd } from '../../../shared/billing/commerce/lifecycle-mapping.js';
import { checkoutExtras } from '../../../shared/billing/payments/checkout-extras.js';
import { isUpgrade, planChangeTiming } from '../../../shared/billing/subscriptions/plan-change-rules.js';
import { repricedSubscription } from '../../support/stripe-lifecycle-objects.js';
import { stripeSubscription } from '../../support/stripe-objects.js';

const at = (iso: string) => Date.parse(iso) / 1000;
const subscription = stripeSubscription({ id: 'sub_1', start: at('2026-11-01T00:00:00Z'), end: at('2026-12-01T00:00:00Z'), interval: 'month', metadata: { plan_id: 'pln_basic' } });
const agency = { planId: 'pln_agency', name: 'Agency', billingCycle: 'monthly' as const, price: 30, currency: 'USD', siteLimit: 10 };

describe('Stripe subscription → our plan and trial', () => {
  it('reads the plan from a price tagged in Stripe first, else from the metadata checkout and plan changes write', () => {
    expect(subscriptionPlanId(subscription)).toBe('pln_basic');
    expect(subscriptionPlanId(repricedSubscription(subscription, 3000, 'pln_agency'))).toBe('pln_agency');
    expect(subscriptionPlanId({ ...subscription, metadata: {} })).toBeUndefined();
  });

  it('gives a trialing subscription its trial end only', () => {
    const trialEnd = at('2026-11-15T00:00:00Z');
    expect(subscriptionTrialEnd({ status: 'trialing', trial_end: trialEnd })).toBe('2026-11-15T00:00:00.000Z');
    expect(subscriptionTrialEnd({ status: 'active', trial_end: trialEnd })).toBeUndefined();
  });

  it('finds the item a price change replaces', () => {
    expect(subscriptionItemId(subscription)).toBe(subscription.items.data[0]!.id);
  });
});

describe('plan change → Stripe subscription update', () => {
  const item = { itemId: 'si_1', priceId: 'price_agency' };
  it('names the plan\'s price, writes the plan as sold, prorates as timed, and has a change that applies now paid first', () => {
    const params = planChangeParams({ ...item, plan: agency, currentCycle: 'monthly', timing: { at: 'now', prorationBehavior: 'always_invoice' }, periodEnd: '2026-12-01T00:00:00.000Z' });
    expect(params).toEqual({
      items: [{ id: 'si_1', price: 'price_agency' }],
      metadata: { plan_id: 'pln_agency', plan_name: 'Agency', billing_cycle: 'monthly', price: '30', currency: 'USD', seats: '10' },
      proration_behavior: 'always_invoice',
      payment_behavior: 'pending_if_incomplete',
    });
  });

  it('starts a shorter interval at the period end (a downgrade from yearly), not now, with nothing to pay now', () => {
    const params = planChangeParams({ ...item, plan: agency, currentCycle: 'yearly', timing: { at: 'periodEnd', prorationBehavior: 'none' }, periodEnd: '2026-12-01T00:00:00.000Z' });
    expect(params).toMatchObject({ proration_behavior: 'none', trial_end: at('2026-12-01T00:00:00Z') });
    expect(params.payment_behavior).toBeUndefined();
  });

  it('times upgrades now and downgrades at period end by default; prorateAll and none apply both now', () => {
    const monthly10 = { billingCycle: 'monthly' as const, price: 10 };
    const yearly100 = { billingCycle: 'yearly' as const, price: 100 };
    expect(isUpgrade(monthly10, yearly100)).toBe(true);
    expect(isUpgrade(yearly100, monthly10)).toBe(false);
    expect(isUpgrade(monthly10, { billingCycle: 'monthly', price: 5 })).toBe(false);
    expect(planChangeTiming(undefined, monthly10, agency)).toEqual({ at: 'now', prorationBehavior: 'always_invoice' });
    expect(planChangeTiming('upgradeNowDowngradeAtRenewal', agency, monthly10)).toEqual({ at: 'periodEnd', prorationBehavior: 'none' });
    expect(planChangeTiming('prorateAll', agency, monthly10)).toEqual({ at: 'now', prorationBehavior: 'create_prorations' });
    expect(planChangeTiming('none', monthly10, agency)).toEqual({ at: 'now', prorationBehavior: 'none' });
  });
});

describe('coupon → Stripe coupon and promotion code; checkout extras', () => {
  it('sends an amount in minor units with its currency, months only when repeating, and the code with its limits', () => {
    const input = { code: 'SAVE5', amountOff: 5.5, currency: 'EUR', duration: 'repeating' as const, durationInMonths: 3, maxRedemptions: 10, expiresAt: '2027-01-01T00:00:00.000Z' };
    expect(couponParams(input, 'cpn_1')).toEqual({ amount_off: 550, currency: 'eur', duration: 'repeating', duration_in_months: 3, name: 'SAVE5', metadata: { coupon_id: 'cpn_1' } });
    expect(promotionCodeParams(input, 'co_1', 'cpn_1')).toEqual({
      promotion: { type: 'coupon', coupon: 'co_1' }, code: 'SAVE5', max_redemptions: 10, expires_at: at('2027-01-01T00:00:00Z'), metadata: { coupon_id: 'cpn_1' },
    });
    expect(couponParams({ code: 'P', percentOff: 20, duration: 'once' }, 'cpn_2')).toEqual({ percent_off: 20, duration: 'once', name: 'P', metadata: { coupon_id: 'cpn_2' } });
  });

  it('restricts a coupon for plans to their Stripe products', () => {
    const input = { code: 'BASIC', percentOff: 50, duration: 'forever' as const, planIds: ['pln_basic', 'pln_pro'] };
    expect(couponParams(input, 'cpn_3', ['pln_basic', 'pln_pro'])).toMatchObject({ applies_to: { products: ['pln_basic', 'pln_pro'] } });
  });

  it('passes tax settings always, and a promo as the discount instead of the promotion-code field', () => {
    const tax = { automaticTax: true, taxIdCollection: false };
    expect(checkoutExtras({ allowPromotionCodes: true }, tax, 'promo_1')).toEqual({
      automatic_tax: { enabled: true }, tax_id_collection: { enabled: false }, discounts: [{ promotion_code: 'promo_1' }],
    });
    expect(checkoutExtras({ allowPromotionCodes: true }, tax, undefined)).toMatchObject({ allow_promotion_codes: true });
    expect(checkoutExtras({}, tax, undefined)).not.toHaveProperty('allow_promotion_codes');
  });
});
