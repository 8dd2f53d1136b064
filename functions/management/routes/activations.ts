import { z } from 'zod';
import { ACTIVATION_STATUSES } from '../../../shared/data/entities/activation.js';
import { listActivations } from '../../../shared/activations/list.js';
import { deactivateActivationById } from '../../../shared/activations/manage.js';
import { ok } from '../../../shared/http/responses.js';
import { paginationQuery } from '../../../shared/http/schemas.js';
import type { Deps } from '../../../shared/runtime.js';
import type { Route, RouteBuilders } from '../route.js';

const listQuery = z.strictObject({
  ...paginationQuery,
  license_id: z.string().min(1).max(64).optional(),
  status: z.enum(ACTIVATION_STATUSES).optional(),
});

export function activationRoutes(deps: Deps, { authed }: RouteBuilders): Route[] {
  return [
    authed('GET', '/api/activations', { query: listQuery }, async ({ caller, query }) =>
      ok(
        await listActivations(deps, caller.userId, {
          page: query.page,
          perPage: query.per_page,
          licenseId: query.license_id,
          status: query.status,
        }),
      ),
    ),
    authed('POST', '/api/activations/{id}/deactivate', {}, async ({ caller, params }) =>
      ok(await deactivateActivationById(deps, caller.userId, params.id!)),
    ),
  ];
}
