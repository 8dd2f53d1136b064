import * as z from 'zod/mini';
import { firstActivation, gettingStarted, isDay, listDeactivationReasons, listFeedback, listUsageEvents, productAnalytics, readOverview } from '../../../shared/insights/index.js';
import { FEEDBACK_TYPES } from '../../../shared/platform/data/index.js';
import { idFilter, ok, paginationQuery, type Route } from '../../../shared/platform/http/index.js';
import { type Deps, lazily } from '../../../shared/platform/index.js';
import { ID_KINDS } from '../id-kinds.js';
import type { RouteBuilders } from '../route.js';

/** The routes' schemas, built with the first request that reads one (functions/management/route.ts: `SchemaSource`). */
const schemas = lazily(() => {
  /** A UTC day, `YYYY-MM-DD`; both ends of a range are included. */
  const day = z.optional(z.string().check(z.refine(isDay, 'must be a date (YYYY-MM-DD)')));
  const range = { from: day, to: day };
  const feedbackQuery = z.strictObject({ ...paginationQuery(), ...range, type: z.optional(z.enum(FEEDBACK_TYPES)) });
  const eventsQuery = z.strictObject({ ...paginationQuery(), ...range, event: z.optional(z.string().check(z.minLength(1), z.maxLength(100))) });
  const reasonsQuery = z.strictObject({ ...paginationQuery(), ...range });
  const analyticsQuery = z.strictObject(range);
  const overviewQuery = z.strictObject({ ...range, product_id: z.optional(idFilter('prd', 'product')) });
  return { feedbackQuery, eventsQuery, reasonsQuery, analyticsQuery, overviewQuery };
});

/**
 * What installed products sent about a product, its daily analytics and first activation, and the account's overview
 * and first steps: the owner only.
 */
export function analyticsRoutes(deps: Deps, { authed }: RouteBuilders): Route[] {
  const byId = { pathIds: { id: ID_KINDS.product } };
  const listOptions = (query: { page: number; per_page: number; from?: string; to?: string }) => ({
    page: query.page,
    perPage: query.per_page,
    from: query.from,
    to: query.to,
  });
  return [
    authed('GET', '/api/products/{id}/feedback', { ...byId, query: () => schemas().feedbackQuery, permission: 'read' }, async ({ caller, params, query }) =>
      ok(await listFeedback(deps, caller.tenantId, params.id!, { ...listOptions(query), type: query.type })),
    ),
    authed('GET', '/api/products/{id}/events', { ...byId, query: () => schemas().eventsQuery, permission: 'read' }, async ({ caller, params, query }) =>
      ok(await listUsageEvents(deps, caller.tenantId, params.id!, { ...listOptions(query), event: query.event })),
    ),
    authed('GET', '/api/products/{id}/deactivation-reasons', { ...byId, query: () => schemas().reasonsQuery, permission: 'read' }, async ({ caller, params, query }) =>
      ok(await listDeactivationReasons(deps, caller.tenantId, params.id!, listOptions(query))),
    ),
    authed('GET', '/api/products/{id}/analytics', { ...byId, query: () => schemas().analyticsQuery, permission: 'read' }, async ({ caller, params, query }) =>
      ok(await productAnalytics(deps, caller.tenantId, params.id!, query)),
    ),
    authed('GET', '/api/products/{id}/first-activation', { ...byId, permission: 'read' }, async ({ caller, params }) =>
      ok({ firstActivation: await firstActivation(deps, caller.tenantId, params.id!) }),
    ),
    authed('GET', '/api/getting-started', { permission: 'read' }, async ({ caller }) => ok(await gettingStarted(deps, caller.tenantId))),
    authed('GET', '/api/analytics/overview', { query: () => schemas().overviewQuery, permission: 'read' }, async ({ caller, query }) =>
      ok(await readOverview(deps, caller.tenantId, { from: query.from, to: query.to, productId: query.product_id })),
    ),
  ];
}
