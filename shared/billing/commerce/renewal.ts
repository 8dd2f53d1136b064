import type Stripe from 'stripe';
import { toPayment, toSubscription } from '../billing-views.js';
import { transact } from '../../platform/data/index.js';
import { ConflictError, newId } from '../../platform/index.js';
import { outboxEvent } from '../../messaging/index.js';
import { overviewCountItems, paymentChanges } from '../../insights/index.js';
import { processedMark } from './event-claims.js';
import { APPLIED, APPLY_ROUNDS, claimLost, ignored, type Applied, type EventContext } from './event-context.js';
import { invoicePeriod, invoiceSubscriptionId, paymentRecord } from './stripe-mapping.js';
import { findSubscription, licenseExpiryChange, subscriptionPatch } from './subscription-records.js';

/**
 * `invoice.paid` for a renewal: the payment is recorded, the subscription's period and the license's `expiresAt`
 * move to the new period's end (an expired license is active again; a revoked or suspended one keeps its state;
 * a failed payment's grace ends),
 * with `payment.completed` and `subscription.renewed`, in one transaction with the event's processed mark. The
 * first invoice (`subscription_create`) is the checkout's own payment: nothing changes (DECISIONS §10).
 */
export async function renewSubscription(ctx: EventContext, invoice: Stripe.Invoice): Promise<Applied> {
  const { deps, tenantId } = ctx;
  if (invoice.billing_reason === 'subscription_create') return ignored('first invoice: paid through checkout');
  const stripeSubscriptionId = invoiceSubscriptionId(invoice);
  const period = invoicePeriod(invoice);
  if (!stripeSubscriptionId || !period) return ignored('invoice of no subscription period');
  for (let round = 0; round < APPLY_ROUNDS; round++) {
    const found = await findSubscription(ctx, stripeSubscriptionId);
    if (!found) return ignored('subscription not bought here');
    const { ref, subscription, license } = found;
    const now = deps.clock.now();
    const product = { productId: subscription.productId ?? license?.productId ?? '', name: subscription.productName ?? '' };
    const payment = paymentRecord({
      paymentId: newId('pay'),
      tenantId,
      customerId: subscription.customerId,
      licenseId: ref.licenseId,
      product,
      amountMinor: invoice.amount_paid,
      currency: invoice.currency,
      providerPaymentId: invoice.id,
      invoicePdfUrl: invoice.invoice_pdf,
      now,
    });
    const next = { ...subscription, currentPeriodStart: period.start, currentPeriodEnd: period.end, updatedAt: now.toISOString() };
    // A late invoice never moves the expiry back; only a license that may run is renewed.
    const renews = license && (license.status === 'active' || license.status === 'expired') && (!license.expiresAt || license.expiresAt < period.end);
    const outcome = await transact(deps.data, (tx) => ({
      claim: processedMark(tx, ctx.claim, now),
      payment: [
        tx.payment.create(payment).commit(),
        ...outboxEvent(tx, { tenantId, type: 'payment.completed', data: toPayment(payment), now }),
        ...(invoice.id ? [tx.stripeRef.put({ tenantId, stripeId: invoice.id, paymentId: payment.paymentId, licenseId: ref.licenseId, customerId: subscription.customerId }).commit()] : []),
      ],
      overview: overviewCountItems(tx, { tenantId, productId: payment.productId || undefined }, paymentChanges(payment)),
      subscription: subscriptionPatch(tx, subscription, next),
      // A paid invoice ends a failed payment's grace.
      license: renews && licenseExpiryChange(tx, license, { ...license, status: 'active', expiresAt: period.end, graceUntil: undefined, updatedAt: now.toISOString() }),
      event: outboxEvent(tx, { tenantId, type: 'subscription.renewed', data: toSubscription(next), now }),
    }));
    if (outcome.committed) return APPLIED;
    if (outcome.refused('claim')) throw claimLost();
    if (!outcome.refused('subscription') && !outcome.refused('license')) throw outcome.unexpected();
  }
  throw new ConflictError('The subscription was changed concurrently; retry');
}
