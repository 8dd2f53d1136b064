import type Stripe from 'stripe';
import type { EntityItem } from '../../platform/data/index.js';
import type { EventContext } from './event-context.js';
import { subscriptionPlanId } from './lifecycle-mapping.js';
import type { SubscriptionItem } from './subscription-records.js';

/**
 * The plan of ours a `customer.subscription.updated` moves the subscription to now (DECISIONS §15): Stripe names
 * another recurring plan of the subscription's product (a price changed in Stripe, or a plan change we made). A
 * downgrade asked for through the API is named by Stripe at once but takes effect at its date: until Stripe's period
 * starts on or after it, the subscription keeps its plan. Undefined when nothing changes.
 */
export async function planMovedTo(
  ctx: EventContext,
  stripeSubscription: Stripe.Subscription,
  subscription: SubscriptionItem,
  periodStart: string | undefined,
): Promise<EntityItem<'plan'> | undefined> {
  const planId = subscriptionPlanId(stripeSubscription);
  if (!planId || planId === subscription.planId) return undefined;
  const pendingUntil = planId === subscription.pendingPlanId ? subscription.pendingPlanEffectiveAt : undefined;
  if (pendingUntil && (!periodStart || periodStart < pendingUntil)) return undefined;
  const { data: plan } = await ctx.deps.data.entities.plan.get({ planId }).go({ consistent: true });
  if (!plan || plan.tenantId !== ctx.tenantId || plan.productId !== subscription.productId || plan.billingCycle === 'lifetime') return undefined;
  return plan;
}
