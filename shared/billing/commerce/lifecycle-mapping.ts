import type Stripe from 'stripe';
import type { EntityItem } from '../../platform/data/index.js';
import { toMinorUnits } from '../../platform/index.js';
import { stripeInterval, type PlanChangeTiming } from '../subscriptions/plan-change-rules.js';
import { soldPlanMetadata } from './sold-plan.js';

/**
 * Stripe objects ↔ the subscription lifecycle (DECISIONS §15), as pure functions (each has a unit test): which plan of
 * ours a Stripe subscription is on, its trial, and the update that moves it to another plan.
 */

type PlanItem = EntityItem<'plan'>;
const iso = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString();
const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : value?.id);

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

/** The subscription's one item: the id a price change replaces, and the Stripe product its prices belong to. */
export function subscriptionLine(subscription: Pick<Stripe.Subscription, 'items'>): { itemId: string; stripeProductId: string } | undefined {
  const item = subscription.items?.data?.[0];
  const stripeProductId = idOf(item?.price?.product as string | { id: string } | null | undefined);
  return item && stripeProductId ? { itemId: item.id, stripeProductId } : undefined;
}

/**
 * The update that moves a Stripe subscription to `plan`: the item's price replaced by the plan's (on the same Stripe
 * product), the plan as sold in the metadata (what `customer.subscription.updated` reads back), and the proration.
 * A change on the same interval keeps the billing cycle (Stripe's default: the next invoice charges the new price); one
 * that shortens the interval would restart the cycle now, so the new cycle is set to start at the period's end
 * (`trial_end`: nothing is charged until then).
 */
export function planChangeParams(input: {
  line: { itemId: string; stripeProductId: string };
  plan: Pick<PlanItem, 'planId' | 'name' | 'billingCycle' | 'price' | 'currency' | 'siteLimit' | 'channel'>;
  currentCycle: string | undefined;
  timing: PlanChangeTiming;
  periodEnd: string | undefined;
}): Stripe.SubscriptionUpdateParams {
  const { plan, timing } = input;
  const cycle = plan.billingCycle === 'monthly' ? 'monthly' : 'yearly';
  const intervalChanges = input.currentCycle !== plan.billingCycle;
  const deferred = timing.at === 'periodEnd' && intervalChanges && input.periodEnd;
  return {
    items: [
      {
        id: input.line.itemId,
        price_data: {
          currency: plan.currency.toLowerCase(),
          product: input.line.stripeProductId,
          unit_amount: toMinorUnits(plan.price, plan.currency),
          recurring: { interval: stripeInterval(cycle) },
        },
      },
    ],
    metadata: soldPlanMetadata(plan),
    proration_behavior: timing.prorationBehavior,
    ...(deferred && { trial_end: Math.floor(new Date(input.periodEnd!).getTime() / 1000) }),
  };
}
