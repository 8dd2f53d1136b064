import * as z from 'zod/mini';
import type { Coupon as CouponView } from '../../../shared/billing/index.js';
import { COUPON_DURATIONS } from '../../../shared/platform/data/index.js';
import { assertDescribes, defineOperations, EX, idOf, named, nullableTimestamp, timestamp } from '../../../shared/platform/openapi/index.js';

const Coupon = named(
  'Coupon',
  z.object({
    id: idOf('cpn'),
    code: z.string(),
    percentOff: z.nullable(z.number()),
    amountOff: z.nullable(z.number()),
    currency: z.nullable(z.string()),
    duration: z.enum(COUPON_DURATIONS),
    durationInMonths: z.nullable(z.number()),
    maxRedemptions: z.nullable(z.number()),
    expiresAt: nullableTimestamp,
    planIds: z.nullable(z.array(idOf('pln'))),
    active: z.boolean(),
    createdAt: timestamp,
    updatedAt: timestamp,
  }),
  'A coupon made in Stripe with one promotion code (`code`, case-insensitive): `percentOff`, or `amountOff` in major units of `currency`. ' +
    '`planIds` null: every plan. Buyers use it as `promo=<code>` on checkout.',
);
assertDescribes<typeof Coupon, CouponView>(true);

const exampleCoupon = {
  id: 'cpn_3k2j5h6g7fqdzs2a3q4w5e6r',
  code: 'LAUNCH20',
  percentOff: 20,
  amountOff: null,
  currency: null,
  duration: 'once',
  durationInMonths: null,
  maxRedemptions: 100,
  expiresAt: EX.expires,
  planIds: null,
  active: true,
  createdAt: EX.created,
  updatedAt: EX.created,
};

export const couponOperations = defineOperations({
  'GET /api/coupons': {
    summary: 'List coupons',
    description: 'Newest first, deactivated ones included (not paginated).',
    responses: { 200: { description: 'The coupons', body: named('CouponList', z.object({ items: z.array(Coupon) })), examples: { coupons: { items: [exampleCoupon] } } } },
  },
  'POST /api/coupons': {
    summary: 'Create a coupon',
    description:
      'Made in Stripe on the connected account as a coupon and a promotion code with `code` (DECISIONS §15): `percentOff`, or `amountOff` ' +
      'with `currency`; `duration` `once`, `repeating` (with `durationInMonths`) or `forever`; `maxRedemptions` and `expiresAt` limit the ' +
      'code; `planIds` the plans it applies to (DECISIONS §20: made with `applies_to` their Stripe products, so Stripe discounts no other ' +
      'plan, whether the code is given as checkout\'s `promo` or typed at Stripe). Codes are unique per vendor, case-insensitive. Nothing is kept when Stripe fails.',
    requestBody: { examples: { percent: { code: 'LAUNCH20', percentOff: 20, duration: 'once', maxRedemptions: 100 } } },
    responses: { 201: { description: 'The coupon', body: Coupon, examples: { created: exampleCoupon } } },
    errors: {
      400: ['give either percentOff, or amountOff with currency', 'No payment provider is connected', 'Stripe refused the secret key'],
      404: ['Plan not found'],
      409: ['A coupon with this code already exists'],
      502: ['Payment provider unavailable'],
    },
  },
  'DELETE /api/coupons/{id}': {
    summary: 'Deactivate a coupon',
    description: 'Deactivates its promotion code at Stripe, then here; checkout refuses the code from then on. The coupon stays listed, `active: false`.',
    responses: { 200: { description: 'The coupon', body: Coupon, examples: { deactivated: { ...exampleCoupon, active: false } } } },
    errors: { 400: ['No payment provider is connected'], 404: ['Coupon not found'], 502: ['Payment provider unavailable'] },
  },
});
