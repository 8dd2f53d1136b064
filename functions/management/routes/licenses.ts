import { z } from 'zod';
import { LICENSE_STATUSES } from '../../../shared/data/entities/license.js';
import { created, noContent, ok } from '../../../shared/http/responses.js';
import { email, idFilter, paginationQuery } from '../../../shared/http/schemas.js';
import { createLicense } from '../../../shared/licenses/create-license.js';
import { deleteLicense } from '../../../shared/licenses/delete-license.js';
import { getLicense } from '../../../shared/licenses/get-license.js';
import { listLicenses } from '../../../shared/licenses/list-licenses.js';
import { regenerateLicenseKey } from '../../../shared/licenses/regenerate-license.js';
import { revokeLicense } from '../../../shared/licenses/revoke-license.js';
import { updateLicense } from '../../../shared/licenses/update-license.js';
import type { Deps } from '../../../shared/runtime.js';
import type { Route } from '../../../shared/http/route.js';
import { ID_KINDS } from '../id-kinds.js';
import type { RouteBuilders } from '../route.js';

const MAX_SEATS = 1_000_000;

/** Any string: one that is not an id of its kind is answered as an unknown one (`bodyIds`). */
const id = z.string();
const licenseFields = {
  customerEmail: email,
  customerName: z.string().trim().min(1).max(200).nullable().optional(),
  status: z.enum(LICENSE_STATUSES),
  seats: z.number().int('must be a whole number').min(1).max(MAX_SEATS),
  /** null: lifetime. */
  expiresAt: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 timestamp' }).nullable(),
};

const createBody = z.strictObject({
  productId: id,
  planId: id.nullable().optional(),
  customerEmail: licenseFields.customerEmail,
  customerName: licenseFields.customerName,
  seats: licenseFields.seats.optional(),
  expiresAt: licenseFields.expiresAt.optional(),
});
const updateBody = z.strictObject(licenseFields).partial();
const listQuery = z.strictObject({
  ...paginationQuery,
  search: z.string().max(254).optional(),
  status: z.enum(LICENSE_STATUSES).optional(),
  product_id: idFilter('prd', 'product').optional(),
});

export function licenseRoutes(deps: Deps, { authed }: RouteBuilders): Route[] {
  const byId = { pathIds: { id: ID_KINDS.license } };
  return [
    authed('GET', '/api/licenses', { query: listQuery }, async ({ caller, query }) =>
      ok(
        await listLicenses(deps, caller.userId, {
          page: query.page,
          perPage: query.per_page,
          search: query.search,
          status: query.status,
          productId: query.product_id,
        }),
      ),
    ),
    authed('POST', '/api/licenses', { body: createBody, bodyIds: { productId: ID_KINDS.product, planId: ID_KINDS.plan } }, async ({ caller, body }) =>
      created(await createLicense(deps, caller.userId, body)),
    ),
    authed('GET', '/api/licenses/{id}', byId, async ({ caller, params }) => ok(await getLicense(deps, caller.userId, params.id!))),
    authed('PUT', '/api/licenses/{id}', { ...byId, body: updateBody }, async ({ caller, params, body }) =>
      ok(await updateLicense(deps, caller.userId, params.id!, body)),
    ),
    authed('DELETE', '/api/licenses/{id}', byId, async ({ caller, params }) => {
      await deleteLicense(deps, caller.userId, params.id!);
      return noContent();
    }),
    authed('POST', '/api/licenses/{id}/revoke', byId, async ({ caller, params }) => ok(await revokeLicense(deps, caller.userId, params.id!))),
    authed('POST', '/api/licenses/{id}/regenerate', byId, async ({ caller, params }) =>
      ok(await regenerateLicenseKey(deps, caller.userId, params.id!)),
    ),
  ];
}
