import type Stripe from 'stripe';
import { toSubscription } from '../billing-views.js';
import { transact } from '../../platform/data/index.js';
import { ConflictError } from '../../platform/index.js';
import { outboxEvent } from '../../messaging/index.js';
import { productSummary, reminderItems } from '../../licensing/index.js';
import { overviewCountItems, subscriptionChanges } from '../../insights/index.js';
import { processedMark } from './event-claims.js';
import { APPLIED, APPLY_ROUNDS, claimLost, ignored, type Applied, type EventContext } from './event-context.js';
import { subscriptionState } from './stripe-mapping.js';
import { planMovedTo } from './plan-change-sync.js';
import { onPlan, planChangeItems } from '../subscriptions/plan-change-items.js';
import { findSubscription, licenseExpiryChange, subscriptionPatch } from './subscription-records.js';

/**
 * `customer.subscription.updated` syncs status, `cancelAtPeriodEnd`, `canceledAt` and the period onto our
 * subscription. `customer.subscription.deleted` does the same, and the license then expires at the period's end,
 * with `subscription.cancelled`. Each commits with the event's processed mark. Stripe may deliver these out of
 * order: an event created before the last one synced (a late `updated` after `deleted`) changes nothing.
 * An `updated` naming another plan of ours moves the subscription and its license to it (shared/billing/commerce/plan-change-sync.ts).
 */
export const syncSubscription = (ctx: EventContext, subscription: Stripe.Subscription) => applySubscription(ctx, subscription, false);
export const endSubscription = (ctx: EventContext, subscription: Stripe.Subscription) => applySubscription(ctx, subscription, true);

async function applySubscription(ctx: EventContext, stripeSubscription: Stripe.Subscription, ended: boolean): Promise<Applied> {
  const { deps, tenantId } = ctx;
  const state = subscriptionState(stripeSubscription);
  for (let round = 0; round < APPLY_ROUNDS; round++) {
    const found = await findSubscription(ctx, stripeSubscription.id);
    if (!found) return ignored('subscription not bought here');
    const { subscription, license } = found;
    if (subscription.providerEventAt !== undefined && ctx.eventCreated < subscription.providerEventAt) return ignored('older than the last subscription event synced');
    const plan = ended ? undefined : await planMovedTo(ctx, stripeSubscription, subscription, state.currentPeriodStart);
    const product = plan && (await productSummary(deps, plan.productId));
    const now = deps.clock.now();
    const synced = { ...subscription, ...state, providerEventAt: ctx.eventCreated, updatedAt: now.toISOString() };
    const next = plan ? onPlan(synced, plan, synced.updatedAt) : synced;
    // Only an active license is given the period's end; a revoked or suspended one stays as it is.
    const expiresAt = ended && license?.status === 'active' ? state.currentPeriodEnd : undefined;
    // Churn, once: the first end of a subscription still counted among the active ones.
    const churns = ended && subscription.status !== 'canceled';
    const outcome = await transact(deps.data, (tx) => {
      const change = plan && product && planChangeItems(tx, { current: subscription, next, license, plan, product, now, seatsHeld: false });
      return {
        claim: processedMark(tx, ctx.claim, now),
        subscription: change ? change.subscription : subscriptionPatch(tx, subscription, next),
        license: change ? change.license : expiresAt !== undefined && license && licenseExpiryChange(tx, license, { ...license, expiresAt, updatedAt: now.toISOString() }),
        event: ended && outboxEvent(tx, { tenantId, type: 'subscription.cancelled', data: toSubscription(next), now }),
        // Set to cancel: the license will not renew, so its renewal reminders are due again (DECISIONS §15).
        reminders: !ended && state.cancelAtPeriodEnd && license && expiresAt === undefined && reminderItems(tx, license, license),
        overview: churns && overviewCountItems(tx, subscription, subscriptionChanges(subscription, -1, now)),
      };
    });
    if (outcome.committed) return APPLIED;
    if (outcome.refused('claim')) throw claimLost();
    if (!outcome.refused('subscription') && !outcome.refused('license')) throw outcome.unexpected();
  }
  throw new ConflictError('The subscription was changed concurrently; retry');
}
