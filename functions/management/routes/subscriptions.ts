import * as z from 'zod/mini';
import { ok, type Route } from '../../../shared/platform/http/index.js';
import { changePlan, type PaymentDeps } from '../../../shared/billing/index.js';
import { type Deps, lazily } from '../../../shared/platform/index.js';
import { ID_KINDS } from '../id-kinds.js';
import type { RouteBuilders } from '../route.js';

/** Built with the first request that reads it (functions/management/route.ts: `SchemaSource`). */
const changePlanBody = lazily(() => z.strictObject({ planId: z.string().check(z.minLength(1), z.maxLength(64)) }));

/** A subscription's plan change (DECISIONS §15). */
export function subscriptionRoutes(deps: Deps & PaymentDeps, { authed }: RouteBuilders): Route[] {
  return [
    authed(
      'POST',
      '/api/subscriptions/{id}/change-plan',
      { pathIds: { id: ID_KINDS.subscription }, body: changePlanBody, bodyIds: { planId: ID_KINDS.plan }, permission: 'billing', audit: { action: 'subscription.changePlan', target: 'subscription' } },
      async ({ caller, params, body }) => ok(await changePlan(deps, { tenantId: caller.tenantId, subscriptionId: params.id!, planId: body.planId })),
    ),
  ];
}
