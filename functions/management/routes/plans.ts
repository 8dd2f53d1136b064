import * as z from 'zod/mini';
import { CHANNELS, createPlan, MAX_FEATURES, deletePlan, getPlan, listPlans, SLUG_PATTERN, updatePlan } from '../../../shared/catalog/index.js';
import { BILLING_CYCLES } from '../../../shared/platform/data/index.js';
import { created, noContent, ok, type Route } from '../../../shared/platform/http/index.js';
import { type Deps, lazily } from '../../../shared/platform/index.js';
import { ID_KINDS } from '../id-kinds.js';
import type { RouteBuilders } from '../route.js';

/** The routes' schemas, built with the first request that reads one (functions/management/route.ts: `SchemaSource`). */
const schemas = lazily(() => {
  /** Prices are major units with at most two decimals, up to what card processors accept in one charge. */
  const price = z
    .number()
    .check(z.gte(0), z.lte(999_999.99), z.refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, 'must have at most two decimal places'));

  const planFields = {
    name: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
    slug: z.string().check(z.minLength(1), z.maxLength(64), z.regex(SLUG_PATTERN, 'must be lower-case letters, digits and single hyphens')),
    billingCycle: z.enum(BILLING_CYCLES),
    price,
    currency: z.pipe(
      z.string().check(z.regex(/^[A-Za-z]{3}$/, 'must be a three-letter currency code')),
      z.transform((code) => code.toUpperCase()),
    ),
    siteLimit: z.number().check(z.int(), z.gte(1), z.lte(1_000_000)),
    shortDescription: z.nullish(z.string().check(z.maxLength(500))),
    isActive: z.boolean(),
    isPublic: z.boolean(),
    channel: z.enum(CHANNELS),
    trialDays: z.number().check(z.int(), z.gte(0), z.lte(90)),
    allowPromotionCodes: z.boolean(),
    /** Keys of the product's features; one it does not define is 400 naming it (shared/catalog/products/features.ts). */
    features: z.array(z.string().check(z.maxLength(64))).check(z.maxLength(MAX_FEATURES)),
  };

  const createBody = z.strictObject({
    ...planFields,
    slug: z.optional(planFields.slug),
    siteLimit: z.optional(planFields.siteLimit),
    isActive: z.optional(planFields.isActive),
    isPublic: z.optional(planFields.isPublic),
    channel: z.optional(planFields.channel),
    trialDays: z.optional(planFields.trialDays),
    allowPromotionCodes: z.optional(planFields.allowPromotionCodes),
    features: z.optional(planFields.features),
  });
  const updateBody = z.partial(createBody);
  return { createBody, updateBody };
});

export function planRoutes(deps: Deps, { authed }: RouteBuilders): Route[] {
  const base = '/api/products/{id}/plans';
  const ofProduct = { pathIds: { id: ID_KINDS.product } };
  const byId = { pathIds: { id: ID_KINDS.product, planId: ID_KINDS.plan } };
  return [
    authed('GET', base, { ...ofProduct, permission: 'read' }, async ({ caller, params }) => ok({ items: await listPlans(deps, caller.tenantId, params.id!) })),
    authed('POST', base, { ...ofProduct, body: () => schemas().createBody, permission: 'catalog', audit: { action: 'plan.create', target: 'plan' } }, async ({ caller, params, body }) =>
      created(await createPlan(deps, caller.tenantId, params.id!, body)),
    ),
    authed('GET', `${base}/{planId}`, { ...byId, permission: 'read' }, async ({ caller, params }) =>
      ok(await getPlan(deps, caller.tenantId, params.id!, params.planId!)),
    ),
    authed('PUT', `${base}/{planId}`, { ...byId, body: () => schemas().updateBody, permission: 'catalog', audit: { action: 'plan.update', target: 'plan' } }, async ({ caller, params, body }) =>
      ok(await updatePlan(deps, caller.tenantId, params.id!, params.planId!, body)),
    ),
    authed('DELETE', `${base}/{planId}`, { ...byId, permission: 'catalog', audit: { action: 'plan.delete', target: 'plan' } }, async ({ caller, params }) => {
      await deletePlan(deps, caller.tenantId, params.id!, params.planId!);
      return noContent();
    }),
  ];
}
