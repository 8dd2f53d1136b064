import { Entity } from 'electrodb';
import { COUPON_DURATIONS } from '../attribute-values.js';
import { globalIndex, model, primaryKey } from '../keys.js';

/**
 * A vendor's coupon (DECISIONS §15), made in Stripe as a coupon with one promotion code (`code`); checkout applies it
 * by the promotion code's id. `percentOff`, or `amountOff` (major units) with `currency`. `active` false once deleted
 * (the promotion code is deactivated at Stripe; the item stays, so the list shows it).
 */
export const couponEntity = () =>
  new Entity({
    model: model('coupon'),
    attributes: {
      couponId: { type: 'string', required: true },
      tenantId: { type: 'string', required: true },
      code: { type: 'string', required: true },
      percentOff: { type: 'number' },
      amountOff: { type: 'number' },
      currency: { type: 'string' },
      duration: { type: COUPON_DURATIONS, required: true },
      durationInMonths: { type: 'number' },
      maxRedemptions: { type: 'number' },
      expiresAt: { type: 'string' },
      /** The plans it applies to; absent: every plan. */
      planIds: { type: 'list', items: { type: 'string' } },
      active: { type: 'boolean', required: true },
      stripeCouponId: { type: 'string', required: true },
      stripePromotionCodeId: { type: 'string', required: true },
      createdAt: { type: 'string', required: true },
      updatedAt: { type: 'string', required: true },
    },
    indexes: {
      byId: primaryKey(['couponId']),
      byTenant: globalIndex(1, ['tenantId'], ['createdAt', 'couponId']),
    },
  });

/**
 * Holds a promotion code within a tenant (codes are case-insensitive, as at Stripe: `code` is upper-cased), and leads
 * checkout's `promo` to its coupon in one read. Created with the coupon; kept when it is deactivated (a code is not reused).
 */
export const couponCodeEntity = () =>
  new Entity({
    model: model('couponCode'),
    attributes: {
      tenantId: { type: 'string', required: true },
      code: { type: 'string', required: true },
      couponId: { type: 'string', required: true },
    },
    indexes: { byCode: primaryKey(['tenantId', 'code']) },
  });
