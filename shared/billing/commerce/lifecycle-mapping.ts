import type Stripe from 'stripe';
import type { EntityItem } from '../../platform/data/index.js';
import type { PlanChangeTiming } from '../subscriptions/plan-change-rules.js';
import { soldPlanMetadata } from './sold-plan.js';

/**
 * Stripe objects ↔ the subscription lifecycle (DECISIONS §15), as pure functions (each has a unit test): which plan of
 * ours a Stripe subscription is on, its trial, and the update that moves it to another plan.
 */

type PlanItem = EntityItem<'plan'>;
const iso = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString();

/**
 * The plan of ours a Stripe subscription is on: its price's `metadata.plan_id` (a price the vendor made in Stripe and
 * tagged with the plan), else the subscription's `metadata.plan_id` (checkout writes it; a plan change rewrites it).
 */
export function subscriptionPlanId(subscription: Pick<Stripe.Subscription, 'items' | 'metadata'>): string | undefined {
  const price = subscription.items?.data?.[0]?.price;
  return price?.metadata?.plan_id || subscription.metadata?.plan_id || undefined;
}

/** When a trialing subscription's trial ends (ISO), else undefined. */
export function subscriptionTrialEnd(subscription: Pick<Stripe.Subscription, 'status' | 'trial_end'>): string | undefined {
  return subscription.status === 'trialing' && subscription.trial_end ? iso(subscription.trial_end) : undefined;
}

/** The id of the subscription's one item, which a price change replaces. */
export function subscriptionItemId(subscription: Pick<Stripe.Subscription, 'items'>): string | undefined {
  return subscription.items?.data?.[0]?.id;
}

/**
 * The update that moves a Stripe subscription to `plan`: the item's price replaced by `priceId` (a price of the
 * plan's own product, shared/billing/payments/plan-products.ts), the plan as sold in the metadata, and the proration.
 * A change that applies now is paid first (`payment_behavior: pending_if_incomplete`, DECISIONS §20): Stripe applies it
 * only once its invoice is paid, and holds it in `pending_update` while it is not. A change on the same interval keeps
 * the billing cycle (Stripe's default: the next invoice charges the new price); one that shortens the interval would
 * restart the cycle now, so the new cycle is set to start at the period's end (`trial_end`: nothing is charged until then).
 */
export function planChangeParams(input: {
  itemId: string;
  priceId: string;
  plan: Pick<PlanItem, 'planId' | 'name' | 'billingCycle' | 'price' | 'currency' | 'siteLimit' | 'channel' | 'features'>;
  currentCycle: string | undefined;
  timing: PlanChangeTiming;
  periodEnd: string | undefined;
}): Stripe.SubscriptionUpdateParams {
  const { plan, timing } = input;
  const intervalChanges = input.currentCycle !== plan.billingCycle;
  const deferred = timing.at === 'periodEnd' && intervalChanges && input.periodEnd;
  return {
    items: [{ id: input.itemId, price: input.priceId }],
    metadata: soldPlanMetadata(plan),
    proration_behavior: timing.prorationBehavior,
    ...(timing.at === 'now' && { payment_behavior: 'pending_if_incomplete' as const }),
    ...(deferred && { trial_end: Math.floor(new Date(input.periodEnd!).getTime() / 1000) }),
  };
}
