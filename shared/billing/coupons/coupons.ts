import type Stripe from 'stripe';
import { type EntityItem, transact, writeItem } from '../../platform/data/index.js';
import { BadRequestError, ConflictError, type Deps, newId, NotFoundError } from '../../platform/index.js';
import type { PaymentDeps } from '../payments/payment-deps.js';
import { providerSecretKey } from '../payments/payment-provider.js';
import { KEY_REFUSED, providerFailure } from '../payments/provider-errors.js';
import { ensurePlanProduct, planProductId } from '../payments/plan-products.js';
import { loadProduct } from '../../catalog/index.js';
import { couponParams, promotionCodeParams, type CouponInput } from './coupon-mapping.js';

type CouponDeps = Pick<Deps, 'data' | 'clock'> & PaymentDeps;
type CouponItem = EntityItem<'coupon'>;

export const COUPON_NOT_FOUND = 'Coupon not found';
export const CODE_TAKEN = 'A coupon with this code already exists';
export const INVALID_PROMOTION_CODE = 'Invalid promotion code';
const NO_PROVIDER = 'No payment provider is connected';

/** Promotion codes are case-insensitive at Stripe: the code's holder is keyed upper-cased. */
export const codeKey = (code: string) => code.toUpperCase();

export function toCoupon(item: CouponItem) {
  return {
    id: item.couponId,
    code: item.code,
    percentOff: item.percentOff ?? null,
    amountOff: item.amountOff ?? null,
    currency: item.currency ?? null,
    duration: item.duration,
    durationInMonths: item.durationInMonths ?? null,
    maxRedemptions: item.maxRedemptions ?? null,
    expiresAt: item.expiresAt ?? null,
    planIds: item.planIds ?? null,
    active: item.active,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
}
export type Coupon = ReturnType<typeof toCoupon>;

async function stripeOf(deps: CouponDeps, tenantId: string): Promise<Stripe> {
  const secretKey = await providerSecretKey(deps, tenantId);
  if (!secretKey) throw new BadRequestError(NO_PROVIDER);
  return deps.payments.stripe(secretKey);
}

/**
 * Makes a coupon (DECISIONS §15): the code is held first (409 when taken, nothing at Stripe), then Stripe makes the
 * coupon and its promotion code, then the coupon is written; a Stripe failure lets the code go again (502 or 400).
 * Plans named must be the tenant's (404 otherwise); the coupon applies to their Stripe products only (DECISIONS §20),
 * which are made first where the account lacks them, so Stripe refuses the code for any other plan however it is
 * entered (`promo`, or typed at Stripe's checkout); checkout's `promo` is refused here too.
 */
export async function createCoupon(deps: CouponDeps, tenantId: string, input: CouponInput): Promise<Coupon> {
  const plans = await Promise.all((input.planIds ?? []).map((planId) => restrictedPlan(deps, tenantId, planId)));
  const stripe = await stripeOf(deps, tenantId);
  const couponId = newId('cpn');
  const held = await writeItem(() => deps.data.entities.couponCode.create({ tenantId, code: codeKey(input.code), couponId }).go({ response: 'none' }));
  if (!held.written) throw new ConflictError(CODE_TAKEN);
  let stripeCoupon: Stripe.Coupon;
  let promotionCode: Stripe.PromotionCode;
  try {
    await Promise.all(plans.map(({ plan, productName }) => ensurePlanProduct(stripe, plan, productName)));
    stripeCoupon = await stripe.coupons.create(couponParams(input, couponId, plans.map(({ plan }) => planProductId(plan.planId))));
    promotionCode = await stripe.promotionCodes.create(promotionCodeParams(input, stripeCoupon.id, couponId));
  } catch (error) {
    await deps.data.entities.couponCode.delete({ tenantId, code: codeKey(input.code) }).go();
    throw providerFailure(error, KEY_REFUSED);
  }
  const now = deps.clock.now().toISOString();
  const item: CouponItem = {
    couponId,
    tenantId,
    code: input.code,
    ...(input.percentOff !== undefined && { percentOff: input.percentOff }),
    ...(input.amountOff !== undefined && { amountOff: input.amountOff, currency: input.currency }),
    duration: input.duration,
    ...(input.durationInMonths !== undefined && { durationInMonths: input.durationInMonths }),
    ...(input.maxRedemptions !== undefined && { maxRedemptions: input.maxRedemptions }),
    ...(input.expiresAt !== undefined && { expiresAt: input.expiresAt }),
    ...(input.planIds?.length && { planIds: input.planIds }),
    active: true,
    stripeCouponId: stripeCoupon.id,
    stripePromotionCodeId: promotionCode.id,
    createdAt: now,
    updatedAt: now,
  };
  // A transaction, so that the audit entry of the change rides with it (shared/identity/audit/audit-scope.ts).
  const outcome = await transact(deps.data, (tx) => ({ coupon: tx.coupon.create(item).commit() }));
  if (!outcome.committed) throw outcome.unexpected();
  return toCoupon(item);
}

/** A plan a coupon is restricted to, with its product's name (its Stripe product's is made of both): the tenant's, else 404. */
async function restrictedPlan(deps: CouponDeps, tenantId: string, planId: string) {
  const { data: plan } = await deps.data.entities.plan.get({ planId }).go();
  if (!plan || plan.tenantId !== tenantId) throw new NotFoundError('Plan not found');
  return { plan, productName: (await loadProduct(deps, tenantId, plan.productId)).name };
}

/** The tenant's coupons, newest first (a vendor has few: not paginated). */
export async function listCoupons(deps: Pick<Deps, 'data'>, tenantId: string): Promise<Coupon[]> {
  const { data } = await deps.data.entities.coupon.query.byTenant({ tenantId }).go({ order: 'desc', pages: 'all' });
  return data.map(toCoupon);
}

/** Deactivates the promotion code at Stripe, then the coupon here; already inactive: answered unchanged. */
export async function deactivateCoupon(deps: CouponDeps, tenantId: string, couponId: string): Promise<Coupon> {
  const { data: coupon } = await deps.data.entities.coupon.get({ couponId }).go({ consistent: true });
  if (!coupon || coupon.tenantId !== tenantId) throw new NotFoundError(COUPON_NOT_FOUND);
  if (!coupon.active) return toCoupon(coupon);
  const stripe = await stripeOf(deps, tenantId);
  await stripe.promotionCodes.update(coupon.stripePromotionCodeId, { active: false }).catch((error: unknown) => Promise.reject(providerFailure(error, KEY_REFUSED)));
  const updatedAt = deps.clock.now().toISOString();
  const outcome = await transact(deps.data, (tx) => ({
    coupon: tx.coupon.patch({ couponId }).set({ active: false, updatedAt }).commit(),
  }));
  if (!outcome.committed) throw outcome.unexpected();
  return toCoupon({ ...coupon, active: false, updatedAt });
}

/**
 * The Stripe promotion code checkout applies for `promo` (DECISIONS §15): the tenant's code, active, not expired, and
 * for this plan when the coupon names plans; anything else is 400 `Invalid promotion code`.
 */
export async function promotionCodeFor(deps: Pick<Deps, 'data' | 'clock'>, tenantId: string, code: string, planId: string): Promise<string> {
  const { data: held } = await deps.data.entities.couponCode.get({ tenantId, code: codeKey(code) }).go();
  const { data: coupon } = held ? await deps.data.entities.coupon.get({ couponId: held.couponId }).go() : { data: null };
  const now = deps.clock.now().toISOString();
  const usable = coupon && coupon.active && (!coupon.expiresAt || coupon.expiresAt > now) && (!coupon.planIds || coupon.planIds.includes(planId));
  if (!usable) throw new BadRequestError(INVALID_PROMOTION_CODE);
  return coupon.stripePromotionCodeId;
}
