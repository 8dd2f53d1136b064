import * as z from 'zod/mini';
import { PLAN_CHANGE_PRORATIONS, PRODUCT_STATUSES, PRODUCT_TYPES, UPDATES_AFTER_EXPIRY } from '../../../shared/platform/data/index.js';
import { createProduct, deleteProduct, FEATURE_KEY_PATTERN, MAX_FEATURES, getProduct, listProducts, MAX_RETURN_ORIGIN_LENGTH, MAX_RETURN_ORIGINS, parseReturnOrigin, PLATFORM_VERSION_PATTERN, PLATFORM_VERSION_RULE, regeneratePublicKey, rotateSigningKey, SLUG_PATTERN, updateProduct } from '../../../shared/catalog/index.js';
import { MAX_STAGING_ACTIVATION_LIMIT, MAX_STAGING_PATTERNS, stagingPatternProblem } from '../../../shared/licensing/index.js';
import { created, httpUrl, noContent, ok, paginationQuery, type Route } from '../../../shared/platform/http/index.js';
import { type Deps, lazily } from '../../../shared/platform/index.js';
import type { SecretBox } from '../../../shared/platform/secrets/index.js';
import { ID_KINDS } from '../id-kinds.js';
import type { RouteBuilders } from '../route.js';

/** The routes' schemas, built with the first request that reads one (functions/management/route.ts: `SchemaSource`). */
const schemas = lazily(() => {
  const text = (max: number) => z.nullish(z.string().check(z.maxLength(max)));
  /** What the update check's `tested`, `requires` and `requires_php` say: a version number, or null to clear it. */
  const platformVersion = z.nullish(z.string().check(z.regex(PLATFORM_VERSION_PATTERN, PLATFORM_VERSION_RULE)));
  /** A domain pattern of staging sites, trimmed and lower-cased (domains are compared lower-case). */
  const stagingPattern = z.pipe(
    z.string().check(z.maxLength(253)),
    z.transform((value, ctx) => {
      const pattern = value.trim().toLowerCase();
      const problem = stagingPatternProblem(pattern);
      if (problem) ctx.issues.push({ code: 'custom', message: problem, input: value });
      return pattern;
    }),
  );

  /** A return origin, normalized as browsers write it (shared/catalog/products/return-origins.ts). */
  const returnOrigin = z.pipe(
    z.string().check(z.maxLength(MAX_RETURN_ORIGIN_LENGTH)),
    z.transform((value, ctx) => {
      const parsed = parseReturnOrigin(value);
      if ('problem' in parsed) ctx.issues.push({ code: 'custom', message: parsed.problem, input: value });
      return 'origin' in parsed ? parsed.origin : value;
    }),
  );

  /** Keys unique: a product answers one name per key. */
  const features = z
    .array(
      z.strictObject({
        key: z.string().check(z.regex(FEATURE_KEY_PATTERN, 'must be 1–64 lower-case letters, digits or -')),
        name: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
      }),
    )
    .check(
      z.maxLength(MAX_FEATURES, `must hold at most ${MAX_FEATURES} features`),
      z.superRefine((list, ctx) => {
        const seen = new Set<string>();
        for (const { key } of list) {
          if (seen.has(key)) ctx.issues.push({ code: 'custom', message: `${key} is given twice`, input: list });
          seen.add(key);
        }
      }),
    );

  const productFields = {
    name: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
    productType: z.enum(PRODUCT_TYPES),
    slug: z.string().check(z.minLength(1), z.maxLength(64), z.regex(SLUG_PATTERN, 'must be lower-case letters, digits and single hyphens')),
    status: z.enum(PRODUCT_STATUSES),
    description: text(10_000),
    isPremium: z.boolean(),
    requiresLicense: z.boolean(),
    managesReleases: z.boolean(),
    licensePrefix: z.string().check(z.minLength(1), z.maxLength(16), z.regex(/^[A-Za-z0-9_-]+$/, 'must be letters, digits, - or _')),
    logoUrl: z.nullish(httpUrl),
    bannerUrl: z.nullish(httpUrl),
    readmeUrl: z.nullish(httpUrl),
    homepage: z.nullish(httpUrl),
    icon: text(32),
    color: z.nullish(z.string().check(z.regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'must be a hex color such as #3366ff'))),
    tested: platformVersion,
    requires: platformVersion,
    requiresPhp: platformVersion,
    /** null: the default patterns; `[]`: none. Kept once each, in the order given. */
    stagingPatterns: z.nullish(
      z.pipe(
        z.array(stagingPattern).check(z.maxLength(MAX_STAGING_PATTERNS, `must hold at most ${MAX_STAGING_PATTERNS} patterns`)),
        z.transform((patterns) => [...new Set(patterns)]),
      ),
    ),
    /** null: the default (3). */
    stagingActivationLimit: z.nullish(z.number().check(z.int('must be a whole number'), z.gte(1), z.lte(MAX_STAGING_ACTIVATION_LIMIT))),
    offlineValidityDays: z.number().check(z.int(), z.gte(1), z.lte(365)),
    updatesAfterExpiry: z.enum(UPDATES_AFTER_EXPIRY),
    /** Kept once each, largest first (the order they come in). */
    renewalReminderDays: z.pipe(
      z.array(z.number().check(z.int('must be a whole number'), z.gte(1), z.lte(60))).check(z.maxLength(10, 'must hold at most 10 days')),
      z.transform((days) => [...new Set(days)].sort((a, b) => b - a)),
    ),
    graceDays: z.number().check(z.int('must be a whole number'), z.gte(0), z.lte(30)),
    /** `[]`: any origin. Kept once each, in the order given. */
    returnOrigins: z.pipe(
      z.array(returnOrigin).check(z.maxLength(MAX_RETURN_ORIGINS, `must hold at most ${MAX_RETURN_ORIGINS} origins`)),
      z.transform((origins) => [...new Set(origins)]),
    ),
  };

  const createBody = z.strictObject({
    ...productFields,
    slug: z.optional(productFields.slug),
    status: z.optional(productFields.status),
    isPremium: z.optional(productFields.isPremium),
    requiresLicense: z.optional(productFields.requiresLicense),
    managesReleases: z.optional(productFields.managesReleases),
    licensePrefix: z.optional(productFields.licensePrefix),
    offlineValidityDays: z.optional(productFields.offlineValidityDays),
    returnOrigins: z.optional(productFields.returnOrigins),
    updatesAfterExpiry: z.optional(productFields.updatesAfterExpiry),
    renewalReminderDays: z.optional(productFields.renewalReminderDays),
    graceDays: z.optional(productFields.graceDays),
    planChangeProration: z.optional(z.enum(PLAN_CHANGE_PRORATIONS)),
    features: z.optional(features),
    /** A bundle's products (shared/catalog/products/bundles.ts checks them). */
    includes: z.optional(z.array(z.string().check(z.maxLength(64))).check(z.maxLength(1000))),
    /** The Composer snippet in the dashboard and license e-mails (DECISIONS §24). */
    composerEnabled: z.optional(z.boolean()),
  });
  const updateBody = z.partial(createBody);
  const listQuery = z.strictObject({
    ...paginationQuery(),
    search: z.optional(z.string().check(z.maxLength(200))),
    status: z.optional(z.enum(PRODUCT_STATUSES)),
  });
  return { createBody, updateBody, listQuery };
});

export function productRoutes(deps: Deps & { secrets: SecretBox }, { authed }: RouteBuilders): Route[] {
  const byId = { pathIds: { id: ID_KINDS.product } };
  return [
    authed('GET', '/api/products', { query: () => schemas().listQuery, permission: 'read' }, async ({ caller, query }) =>
      ok(await listProducts(deps, caller.tenantId, { page: query.page, perPage: query.per_page, search: query.search, status: query.status })),
    ),
    authed('POST', '/api/products', { body: () => schemas().createBody, permission: 'catalog', audit: { action: 'product.create', target: 'product' } }, async ({ caller, body }) =>
      created(await createProduct(deps, caller.tenantId, body)),
    ),
    authed('GET', '/api/products/{id}', { ...byId, permission: 'read' }, async ({ caller, params }) => ok(await getProduct(deps, caller.tenantId, params.id!))),
    authed('PUT', '/api/products/{id}', { ...byId, body: () => schemas().updateBody, permission: 'catalog', audit: { action: 'product.update', target: 'product' } }, async ({ caller, params, body }) =>
      ok(await updateProduct(deps, caller.tenantId, params.id!, body)),
    ),
    authed('DELETE', '/api/products/{id}', { ...byId, permission: 'catalog', audit: { action: 'product.delete', target: 'product' } }, async ({ caller, params }) => {
      await deleteProduct(deps, caller.tenantId, params.id!);
      return noContent();
    }),
    authed('POST', '/api/products/{id}/regenerate-public-key', { ...byId, permission: 'catalog', audit: { action: 'product.regeneratePublicKey', target: 'product' } }, async ({ caller, params }) =>
      ok(await regeneratePublicKey(deps, caller.tenantId, params.id!)),
    ),
    authed('POST', '/api/products/{id}/signing-key/rotate', { ...byId, permission: 'catalog', audit: { action: 'product.rotateSigningKey', target: 'product' } }, async ({ caller, params }) =>
      ok(await rotateSigningKey(deps, caller.tenantId, params.id!)),
    ),
  ];
}
