import * as z from 'zod/mini';
import { createCoupon, deactivateCoupon, listCoupons, type PaymentDeps } from '../../../shared/billing/index.js';
import { COUPON_DURATIONS } from '../../../shared/platform/data/index.js';
import { checkIdShape, created, ok, type Route } from '../../../shared/platform/http/index.js';
import { type Deps, lazily } from '../../../shared/platform/index.js';
import { ID_KINDS } from '../id-kinds.js';
import type { RouteBuilders } from '../route.js';

/** The routes' schemas, built with the first request that reads one (functions/management/route.ts: `SchemaSource`). */
const schemas = lazily(() => {
  const createBody = z
    .strictObject({
      code: z.string().check(z.regex(/^[A-Za-z0-9_-]{3,50}$/, 'must be 3 to 50 letters, digits, _ or -')),
      percentOff: z.optional(z.number().check(z.gt(0), z.lte(100))),
      amountOff: z.optional(z.number().check(z.gt(0), z.lte(999_999.99))),
      currency: z.optional(
        z.pipe(z.string().check(z.regex(/^[A-Za-z]{3}$/, 'must be a three-letter currency code')), z.transform((code) => code.toUpperCase())),
      ),
      duration: z.enum(COUPON_DURATIONS),
      durationInMonths: z.optional(z.number().check(z.int(), z.gte(1), z.lte(36))),
      maxRedemptions: z.optional(z.number().check(z.int(), z.gte(1), z.lte(1_000_000))),
      expiresAt: z.optional(z.iso.datetime({ offset: true, message: 'must be an ISO 8601 timestamp' })),
      planIds: z.optional(z.array(z.string().check(z.minLength(1), z.maxLength(64))).check(z.maxLength(50))),
    })
    .check(
      z.refine((body) => (body.percentOff === undefined) !== (body.amountOff === undefined), 'give either percentOff, or amountOff with currency'),
      z.refine((body) => (body.amountOff === undefined) === (body.currency === undefined), 'amountOff and currency go together'),
      z.refine((body) => (body.duration === 'repeating') === (body.durationInMonths !== undefined), 'durationInMonths is required with duration repeating, and only then'),
    );
  return { createBody };
});

/** Coupons made in Stripe (DECISIONS §15). */
export function couponRoutes(deps: Deps & PaymentDeps, { authed }: RouteBuilders): Route[] {
  return [
    authed('GET', '/api/coupons', { permission: 'read' }, async ({ caller }) => ok({ items: await listCoupons(deps, caller.tenantId) })),
    authed('POST', '/api/coupons', { body: () => schemas().createBody, permission: 'billing', audit: { action: 'coupon.create', target: 'coupon' } }, async ({ caller, body }) => {
      for (const planId of body.planIds ?? []) checkIdShape(ID_KINDS.plan, planId);
      return created(await createCoupon(deps, caller.tenantId, { ...body, expiresAt: body.expiresAt && new Date(body.expiresAt).toISOString() }));
    }),
    authed('DELETE', '/api/coupons/{id}', { pathIds: { id: ID_KINDS.coupon }, permission: 'billing', audit: { action: 'coupon.deactivate', target: 'coupon' } }, async ({ caller, params }) => ok(await deactivateCoupon(deps, caller.tenantId, params.id!))),
  ];
}
