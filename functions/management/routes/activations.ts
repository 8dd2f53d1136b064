import * as z from 'zod/mini';
import { ACTIVATION_STATUSES } from '../../../shared/platform/data/index.js';
import { deactivateActivationById, listActivations } from '../../../shared/licensing/index.js';
import { idFilter, ok, paginationQuery, type Route } from '../../../shared/platform/http/index.js';
import { type Deps, lazily } from '../../../shared/platform/index.js';
import { ID_KINDS } from '../id-kinds.js';
import type { RouteBuilders } from '../route.js';

/** Built with the first request that reads it (functions/management/route.ts: `SchemaSource`). */
const listQuery = lazily(() =>
  z.strictObject({
    ...paginationQuery(),
    license_id: z.optional(idFilter('lic', 'license')),
    status: z.optional(z.enum(ACTIVATION_STATUSES)),
  }),
);

export function activationRoutes(deps: Deps, { authed }: RouteBuilders): Route[] {
  return [
    authed('GET', '/api/activations', { query: listQuery, permission: 'read' }, async ({ caller, query }) =>
      ok(
        await listActivations(deps, caller.tenantId, {
          page: query.page,
          perPage: query.per_page,
          licenseId: query.license_id,
          status: query.status,
        }),
      ),
    ),
    authed('POST', '/api/activations/{id}/deactivate', { pathIds: { id: ID_KINDS.activation }, permission: 'activationSupport', audit: { action: 'activation.deactivate', target: 'activation' } }, async ({ caller, params }) =>
      ok(await deactivateActivationById(deps, caller.tenantId, params.id!)),
    ),
  ];
}
