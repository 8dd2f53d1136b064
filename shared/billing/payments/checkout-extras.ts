import type Stripe from 'stripe';
import type { EntityItem } from '../../platform/data/index.js';
import type { TaxSettings } from './payment-provider.js';

/**
 * What a checkout session takes from the lifecycle settings (DECISIONS §15): the vendor's tax settings on every
 * session, and either the promotion code asked for (`promo`, as the session's discount) or, when the plan allows it,
 * the field where buyers type one (Stripe takes one or the other).
 */
export function checkoutExtras(
  plan: Pick<EntityItem<'plan'>, 'allowPromotionCodes'>,
  tax: Required<TaxSettings>,
  promotionCode: string | undefined,
): Partial<Stripe.Checkout.SessionCreateParams> {
  return {
    automatic_tax: { enabled: tax.automaticTax },
    tax_id_collection: { enabled: tax.taxIdCollection },
    ...(promotionCode ? { discounts: [{ promotion_code: promotionCode }] } : plan.allowPromotionCodes && { allow_promotion_codes: true }),
  };
}
