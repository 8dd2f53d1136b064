import * as z from 'zod/mini';
import { assertDescribes, defineOperations, described, EX, exampleSubscription, named, timestamp } from '../../../shared/platform/openapi/index.js';
import type { changePlan } from '../../../shared/billing/index.js';
import { Subscription } from './customers.openapi.js';

export const PlanChange = named(
  'PlanChange',
  z.object({
    subscription: Subscription,
    effectiveAt: described(timestamp, 'When the new plan takes effect: now (an upgrade), or the current period\'s end (a downgrade, shown as `pendingPlanId`).'),
  }),
  'A plan change asked for: the subscription as it is now, and when the change takes effect.',
);
assertDescribes<typeof PlanChange, Awaited<ReturnType<typeof changePlan>>>(true);

export const examplePlanChange = { subscription: { ...exampleSubscription, planName: 'Agency', price: 99 }, effectiveAt: EX.updated };
export const examplePendingPlanChange = {
  subscription: { ...exampleSubscription, pendingPlanId: EX.planId, pendingPlanEffectiveAt: EX.expires },
  effectiveAt: EX.expires,
};

/** What both plan-change routes (management and portal) say about the change itself. */
export const PLAN_CHANGE_DESCRIPTION =
  'Moves the subscription to another recurring plan of its product (DECISIONS §15, §20). The plan must be on sale: active (a retired ' +
  'plan is 404), and public when asked through the portal (a private plan is 404 there; the management API may move a customer to one). ' +
  'Under the product\'s `planChangeProration` ' +
  '`upgradeNowDowngradeAtRenewal` (the default), an upgrade (a longer interval, or a higher price per year) applies at once and Stripe ' +
  'invoices the difference now (`proration_behavior: always_invoice`); a downgrade takes effect at the current period\'s end (Stripe is ' +
  'given the new price without proration, billed from the next period; until then the license keeps its plan and seats). `prorateAll` ' +
  'applies both at once with `create_prorations`, `none` both at once without proration. The license keeps its key and activations; ' +
  'when the change takes effect its `seats` become the plan\'s `siteLimit` and its `planId` the plan. A change that applies now is sent ' +
  'with `payment_behavior: pending_if_incomplete`: it applies once Stripe has collected its invoice, and one Stripe could not collect is ' +
  '402 with nothing changed (Stripe applies it if it is paid before its pending update expires, and its event brings it here). While a ' +
  'downgrade is pending, new activations and leases count against the smaller of the current and the pending seats. A second change while ' +
  'one is pending replaces it, and the buyer pays for one change; asking for the current plan takes a pending downgrade back. Emits ' +
  '`subscription.updated` and `license.updated` when it takes effect. Nothing changes when Stripe fails.';

export const PLAN_CHANGE_ERRORS = {
  400: ["planId must be a recurring plan of the subscription's product", 'The subscription is already on this plan', 'The subscription has ended',
    'Subscription is not billed through the payment provider', 'No payment provider is connected', 'Stripe refused the secret key'],
  402: ['Payment for the plan change failed'],
  404: ['Subscription not found', 'Plan not found'],
  409: ['Deactivate sites first: 4 active, the plan allows 3', 'The subscription was changed concurrently; retry'],
  502: ['Payment provider unavailable'],
};

export const subscriptionOperations = defineOperations({
  'POST /api/subscriptions/{id}/change-plan': {
    summary: "Change a subscription's plan",
    description: PLAN_CHANGE_DESCRIPTION,
    requestBody: { examples: { upgrade: { planId: EX.planId } } },
    responses: {
      200: { description: 'The change, applied or pending', body: PlanChange, examples: { upgrade: examplePlanChange, downgrade: examplePendingPlanChange } },
    },
    errors: PLAN_CHANGE_ERRORS,
  },
});
