import * as z from 'zod/mini';
import { createCustomer, deleteCustomer, listCustomers, metadataSchema, updateCustomer } from '../../../shared/customers/index.js';
import { createPortalPreview, eraseCustomer, exportCustomer, getCustomer } from '../../../shared/portal/index.js';
import { countryCode, created, email, noContent, ok, paginationQuery, type Route, timeZone } from '../../../shared/platform/http/index.js';
import { type Deps, lazily } from '../../../shared/platform/index.js';
import { ID_KINDS } from '../id-kinds.js';
import type { RouteBuilders } from '../route.js';

/** The routes' schemas, built with the first request that reads one (functions/management/route.ts: `SchemaSource`). */
const schemas = lazily(() => {
  const text = (max: number) => z.nullish(z.string().check(z.trim(), z.maxLength(max)));
  const customerFields = {
    email,
    firstName: text(100),
    lastName: text(100),
    company: text(200),
    phone: text(50),
    street: text(200),
    city: text(100),
    state: text(100),
    postalCode: text(20),
    country: z.nullish(countryCode),
    timezone: z.nullish(timeZone),
    metadata: z.nullish(metadataSchema),
  };

  const createBody = z.strictObject(customerFields);
  const updateBody = z.partial(createBody);
  const listQuery = z.strictObject({ ...paginationQuery(), search: z.optional(z.string().check(z.maxLength(254))) });
  /** Any string: one that is not a product id is answered as an unknown one (`bodyIds`). */
  const previewBody = z.strictObject({ productId: z.optional(z.string({ error: 'productId must be a string' })) });
  return { createBody, updateBody, listQuery, previewBody };
});

export function customerRoutes(deps: Deps, { authed }: RouteBuilders): Route[] {
  return [
    authed('GET', '/api/customers', { query: () => schemas().listQuery, permission: 'read' }, async ({ caller, query }) =>
      ok(await listCustomers(deps, caller.tenantId, { page: query.page, perPage: query.per_page, search: query.search })),
    ),
    authed('POST', '/api/customers', { body: () => schemas().createBody, permission: 'customers', audit: { action: 'customer.create', target: 'customer' } }, async ({ caller, body }) => created(await createCustomer(deps, caller.tenantId, body))),
    authed('GET', '/api/customers/{id}', { pathIds: { id: ID_KINDS.customer }, permission: 'read' }, async ({ caller, params }) => ok(await getCustomer(deps, caller.tenantId, params.id!))),
    authed('PUT', '/api/customers/{id}', { body: () => schemas().updateBody, pathIds: { id: ID_KINDS.customer }, permission: 'customerSupport', audit: { action: 'customer.update', target: 'customer' } }, async ({ caller, params, body }) =>
      ok(await updateCustomer(deps, caller.tenantId, params.id!, body)),
    ),
    authed('DELETE', '/api/customers/{id}', { pathIds: { id: ID_KINDS.customer }, permission: 'customers', audit: { action: 'customer.delete', target: 'customer' } }, async ({ caller, params }) => {
      await deleteCustomer(deps, caller.tenantId, params.id!);
      return noContent();
    }),
    authed('GET', '/api/customers/{id}/export', { pathIds: { id: ID_KINDS.customer }, permission: 'customerSupport' }, async ({ caller, params }) =>
      ok(await exportCustomer(deps, caller.tenantId, params.id!), {
        headers: { 'content-disposition': `attachment; filename="customer-${params.id!}.json"`, 'cache-control': 'no-store' },
      }),
    ),
    // Read-only (a preview changes nothing), so any role that reads customers may; the one-time link in the answer is
    // not kept for an `Idempotency-Key` replay.
    authed(
      'POST',
      '/api/customers/{id}/portal-preview',
      {
        body: () => schemas().previewBody,
        pathIds: { id: ID_KINDS.customer },
        bodyIds: { productId: ID_KINDS.product },
        permission: 'read',
        idempotent: false,
        audit: { action: 'customer.portalPreview', target: 'portalSignIn', idField: 'customerId' },
      },
      async ({ caller, params, body, baseUrl }) => created(await createPortalPreview(deps, caller.tenantId, params.id!, body.productId, baseUrl)),
    ),
    authed('POST', '/api/customers/{id}/erase', { pathIds: { id: ID_KINDS.customer }, permission: 'customers', audit: { action: 'customer.erase', target: 'customer' } }, async ({ caller, params }) =>
      ok(await eraseCustomer(deps, caller.tenantId, params.id!)),
    ),
  ];
}
