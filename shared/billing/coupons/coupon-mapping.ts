import type Stripe from 'stripe';
import { toMinorUnits } from '../../platform/index.js';
import type { COUPON_DURATIONS } from '../../platform/data/index.js';

export type CouponInput = {
  code: string;
  percentOff?: number;
  amountOff?: number;
  currency?: string;
  duration: (typeof COUPON_DURATIONS)[number];
  durationInMonths?: number;
  maxRedemptions?: number;
  expiresAt?: string;
  planIds?: string[];
};

/**
 * Our coupon → Stripe's coupon and promotion code (pure; unit-tested). Amounts go to Stripe in minor units. A coupon
 * restricted to plans applies, at Stripe, to their products only (`planProducts`: shared/billing/payments/plan-products.ts).
 */
export function couponParams(input: CouponInput, couponId: string, planProducts: string[] = []): Stripe.CouponCreateParams {
  return {
    ...(planProducts.length > 0 && { applies_to: { products: planProducts } }),
    ...(input.percentOff !== undefined && { percent_off: input.percentOff }),
    ...(input.amountOff !== undefined && input.currency && { amount_off: toMinorUnits(input.amountOff, input.currency), currency: input.currency.toLowerCase() }),
    duration: input.duration,
    ...(input.duration === 'repeating' && input.durationInMonths !== undefined && { duration_in_months: input.durationInMonths }),
    name: input.code,
    metadata: { coupon_id: couponId },
  };
}

export function promotionCodeParams(input: CouponInput, stripeCouponId: string, couponId: string): Stripe.PromotionCodeCreateParams {
  return {
    promotion: { type: 'coupon', coupon: stripeCouponId },
    code: input.code,
    ...(input.maxRedemptions !== undefined && { max_redemptions: input.maxRedemptions }),
    ...(input.expiresAt !== undefined && { expires_at: Math.floor(new Date(input.expiresAt).getTime() / 1000) }),
    metadata: { coupon_id: couponId },
  };
}
