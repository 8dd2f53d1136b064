import type Stripe from 'stripe';
import { toSubscription } from '../billing-views.js';
import { transact } from '../../platform/data/index.js';
import { ConflictError } from '../../platform/index.js';
import { outboxEvent } from '../../messaging/index.js';
import { DEFAULT_GRACE_DAYS } from '../../catalog/index.js';
import { processedMark } from './event-claims.js';
import { APPLIED, APPLY_ROUNDS, claimLost, ignored, type Applied, type EventContext } from './event-context.js';
import { failedPeriodEnd, graceEnd, invoiceSubscriptionId } from './stripe-mapping.js';
import { findSubscription, licenseExpiryChange, subscriptionPatch } from './subscription-records.js';

/**
 * `invoice.payment_failed` for a renewal (DECISIONS §15): the license gets `graceUntil` = the failed period's end + its
 * product's `graceDays`, and stays valid (`inGrace`) until then (one the sweep already expired at the period's end is
 * active again); the subscription is `past_due`, with `subscription.past_due`; all in one transaction with the event's
 * processed mark. A later failure of the same period (Stripe retries the card) finds the grace set and changes
 * nothing; the next paid invoice ends the grace (renewal.ts), and the expiry sweep expires the license at its end.
 */
export async function failSubscriptionPayment(ctx: EventContext, invoice: Stripe.Invoice): Promise<Applied> {
  const { deps, tenantId } = ctx;
  if (invoice.billing_reason === 'subscription_create') return ignored('first invoice: the checkout was not paid');
  // A plan change's invoice: Stripe holds the change until it is paid (DECISIONS §20); the period itself is paid.
  if (invoice.billing_reason === 'subscription_update') return ignored('plan change not paid: nothing changed');
  const stripeSubscriptionId = invoiceSubscriptionId(invoice);
  const periodEnd = failedPeriodEnd(invoice);
  if (!stripeSubscriptionId || !periodEnd) return ignored('invoice of no subscription period');
  for (let round = 0; round < APPLY_ROUNDS; round++) {
    const found = await findSubscription(ctx, stripeSubscriptionId);
    if (!found?.license) return ignored('subscription not bought here, or its license is gone');
    const { subscription, license } = found;
    const { data: product } = await deps.data.entities.product.get({ productId: license.productId }).go();
    const graceUntil = graceEnd(periodEnd, product?.graceDays ?? DEFAULT_GRACE_DAYS);
    const now = deps.clock.now();
    if (license.status !== 'active' && license.status !== 'expired') return ignored('license revoked or suspended');
    if (!license.expiresAt || license.expiresAt > periodEnd) return ignored('license runs past the failed period');
    if (license.graceUntil === graceUntil) return ignored('grace already given for this period');
    if (graceUntil <= now.toISOString()) return ignored('grace already over');
    const next = { ...subscription, status: 'past_due', updatedAt: now.toISOString() };
    const outcome = await transact(deps.data, (tx) => ({
      claim: processedMark(tx, ctx.claim, now),
      subscription: subscriptionPatch(tx, subscription, next),
      license: licenseExpiryChange(tx, license, { ...license, status: 'active', graceUntil, updatedAt: now.toISOString() }),
      event: outboxEvent(tx, { tenantId, type: 'subscription.past_due', data: toSubscription(next), now }),
    }));
    if (outcome.committed) return APPLIED;
    if (outcome.refused('claim')) throw claimLost();
    if (!outcome.refused('subscription') && !outcome.refused('license')) throw outcome.unexpected();
  }
  throw new ConflictError('The subscription was changed concurrently; retry');
}
