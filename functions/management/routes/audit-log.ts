import * as z from 'zod/mini';
import { listAuditEntries, verifyAuditLog } from '../../../shared/identity/index.js';
import { ok, paginationQuery, type Route } from '../../../shared/platform/http/index.js';
import { type Deps, lazily } from '../../../shared/platform/index.js';
import type { RouteBuilders } from '../route.js';

/** The routes' schemas, built with the first request that reads one (functions/management/route.ts: `SchemaSource`). */
const schemas = lazily(() => {
  const filterText = z.optional(z.string().check(z.minLength(1), z.maxLength(200)));
  /** An id as entries hold them: ours (`prd_…`) or Stripe's (`evt_…`), so a malformed one is refused, not searched for. */
  const ID_SHAPE = /^[a-z]{2,5}_[A-Za-z0-9_]{14,64}$/;
  const idFilter = z.optional(z.string().check(z.regex(ID_SHAPE, 'must be an id')));
  /** The service's own actors (DECISIONS §17: Stripe-driven and import-driven changes) have names, not ids. */
  const actorFilter = z.optional(z.union([z.enum(['stripe', 'import']), z.string().check(z.regex(ID_SHAPE, 'must be an id'))]));
  const instant = z.optional(z.iso.datetime({ offset: true, message: 'must be an ISO 8601 timestamp' }));
  const listQuery = z.strictObject({
    ...paginationQuery(),
    actor_id: actorFilter,
    action: filterText,
    target_type: filterText,
    target_id: idFilter,
    from: instant,
    to: instant,
  });
  return { listQuery };
});

/** DECISIONS §17: the tenant's audit log and its chain's check, for owners and admins. */
export function auditLogRoutes(deps: Deps, { authed }: RouteBuilders): Route[] {
  const iso = (value: string | undefined) => value && new Date(value).toISOString();
  return [
    authed('GET', '/api/audit-log', { query: () => schemas().listQuery, permission: 'auditLog' }, async ({ caller, query }) =>
      ok(
        await listAuditEntries(deps, caller.tenantId, {
          page: query.page,
          perPage: query.per_page,
          actorId: query.actor_id,
          action: query.action,
          targetType: query.target_type,
          targetId: query.target_id,
          from: iso(query.from),
          to: iso(query.to),
        }),
      ),
    ),
    authed('GET', '/api/audit-log/verify', { permission: 'auditLog' }, async ({ caller }) => ok(await verifyAuditLog(deps, caller.tenantId))),
  ];
}
