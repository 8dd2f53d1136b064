import * as z from 'zod/mini';
import { CHANNELS, MAX_FEATURES } from '../../../shared/catalog/index.js';
import { createLicense, deleteLicense, getLicense, listLicenses, liveLeases, MAX_LEASE_SECONDS, MAX_SEATS, MIN_LEASE_SECONDS, regenerateLicenseKey, revokeLicense, transferLicense, updateLicense } from '../../../shared/licensing/index.js';
import { LICENSE_STATUSES } from '../../../shared/platform/data/index.js';
import { created, email, idFilter, noContent, ok, paginationQuery, type Route } from '../../../shared/platform/http/index.js';
import { type Deps, lazily } from '../../../shared/platform/index.js';
import { ID_KINDS } from '../id-kinds.js';
import type { RouteBuilders } from '../route.js';
import { RATE_LIMITS, type RateLimiter } from '../../../shared/platform/rate-limits/index.js';

/** The routes' schemas, built with the first request that reads one (functions/management/route.ts: `SchemaSource`). */
const schemas = lazily(() => {
  /** Any string: one that is not an id of its kind is answered as an unknown one (`bodyIds`). */
  const id = z.string();
  const licenseFields = {
    customerEmail: email,
    customerName: z.nullish(z.string().check(z.trim(), z.minLength(1), z.maxLength(200))),
    status: z.enum(LICENSE_STATUSES),
    // `z.int` as a check (what classic zod's `.int()` adds): as the schema, its message would also replace `expected number` for a string.
    seats: z.number().check(z.int('must be a whole number'), z.gte(1), z.lte(MAX_SEATS)),
    /** null: lifetime. */
    expiresAt: z.nullable(z.iso.datetime({ offset: true, message: 'must be an ISO 8601 timestamp' })),
    channel: z.enum(CHANNELS),
    floating: z.boolean(),
    leaseSeconds: z.number().check(z.int('must be a whole number'), z.gte(MIN_LEASE_SECONDS), z.lte(MAX_LEASE_SECONDS)),
    /** Keys of the product's features; one it does not define is 400 naming it. */
    features: z.array(z.string().check(z.maxLength(64))).check(z.maxLength(MAX_FEATURES)),
  };

  const createBody = z.strictObject({
    productId: id,
    planId: z.nullish(id),
    customerEmail: licenseFields.customerEmail,
    customerName: licenseFields.customerName,
    seats: z.optional(licenseFields.seats),
    expiresAt: z.optional(licenseFields.expiresAt),
    channel: z.optional(licenseFields.channel),
    floating: z.optional(licenseFields.floating),
    leaseSeconds: z.optional(licenseFields.leaseSeconds),
    features: z.optional(licenseFields.features),
  });
  const updateBody = z.partial(z.strictObject(licenseFields));
  const transferBody = z.strictObject({
    email: licenseFields.customerEmail,
    name: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(200))),
    keepActivations: z.optional(z.boolean()),
  });
  const listQuery = z.strictObject({
    ...paginationQuery(),
    search: z.optional(z.string().check(z.maxLength(254))),
    status: z.optional(z.enum(LICENSE_STATUSES)),
    product_id: z.optional(idFilter('prd', 'product')),
  });
  return { createBody, updateBody, transferBody, listQuery };
});

export function licenseRoutes(deps: Deps, limits: RateLimiter, { authed }: RouteBuilders): Route[] {
  const byId = { pathIds: { id: ID_KINDS.license } };
  return [
    authed('GET', '/api/licenses', { query: () => schemas().listQuery, permission: 'read' }, async ({ caller, query }) =>
      ok(
        await listLicenses(deps, caller.tenantId, {
          page: query.page,
          perPage: query.per_page,
          search: query.search,
          status: query.status,
          productId: query.product_id,
        }),
      ),
    ),
    authed('POST', '/api/licenses', { body: () => schemas().createBody, bodyIds: { productId: ID_KINDS.product, planId: ID_KINDS.plan }, permission: 'licenses', audit: { action: 'license.create', target: 'license' } }, async ({ caller, body }) =>
      created(await createLicense(deps, caller.tenantId, body)),
    ),
    authed('GET', '/api/licenses/{id}', { ...byId, permission: 'read' }, async ({ caller, params }) => ok(await getLicense(deps, caller.tenantId, params.id!))),
    authed('GET', '/api/licenses/{id}/leases', { ...byId, permission: 'read' }, async ({ caller, params }) => ok({ data: await liveLeases(deps, caller.tenantId, params.id!) })),
    authed('PUT', '/api/licenses/{id}', { ...byId, body: () => schemas().updateBody, permission: 'licenseSupport', audit: { action: 'license.update', target: 'license' } }, async ({ caller, params, body }) =>
      ok(await updateLicense(deps, caller.tenantId, params.id!, body)),
    ),
    authed('DELETE', '/api/licenses/{id}', { ...byId, permission: 'licenses', audit: { action: 'license.delete', target: 'license' } }, async ({ caller, params }) => {
      await deleteLicense(deps, caller.tenantId, params.id!);
      return noContent();
    }),
    authed('POST', '/api/licenses/{id}/transfer', { ...byId, body: () => schemas().transferBody, permission: 'licenseSupport', audit: { action: 'license.transfer', target: 'license' } }, async ({ caller, params, body, baseUrl }) => {
      // Each transfer e-mails the license to the address given: limited per tenant, with the portal's (DECISIONS §15).
      await limits.take(RATE_LIMITS.licenseTransferTenant, caller.tenantId);
      return ok(await transferLicense(deps, caller.tenantId, params.id!, body, baseUrl));
    }),
    authed('POST', '/api/licenses/{id}/revoke', { ...byId, permission: 'licenseSupport', audit: { action: 'license.revoke', target: 'license' } }, async ({ caller, params }) => ok(await revokeLicense(deps, caller.tenantId, params.id!))),
    authed('POST', '/api/licenses/{id}/regenerate', { ...byId, permission: 'licenseSupport', audit: { action: 'license.regenerate', target: 'license' } }, async ({ caller, params }) =>
      ok(await regenerateLicenseKey(deps, caller.tenantId, params.id!)),
    ),
  ];
}
