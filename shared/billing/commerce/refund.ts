import type Stripe from 'stripe';
import { toPayment } from '../billing-views.js';
import { transact } from '../../platform/data/index.js';
import { outboxEvent } from '../../messaging/index.js';
import { NotFoundError } from '../../platform/index.js';
import { revokeLicense } from '../../licensing/index.js';
import { KEY_REFUSED, providerFailure } from '../payments/provider-errors.js';
import { overviewCountItems, refundChanges } from '../../insights/index.js';
import { processedMark } from './event-claims.js';
import { APPLIED, claimLost, ignored, type Applied, type EventContext } from './event-context.js';
import { chargePaymentIds, chargePaymentIntentId, paidInvoiceIds } from './stripe-mapping.js';

/**
 * `charge.refunded` (a full refund) of a one-time purchase, or of a subscription's first or renewal payment: the
 * license bought with the payment is revoked (its activations ended, with `license.revoked`), then the payment is
 * marked `refunded` with `payment.refunded` in one transaction with the event's processed mark. Revoking first
 * keeps a crash between the two harmless: the retry finds the license revoked (no second event) and commits the
 * rest. A partial refund (`refunded: false`) leaves the license and payment as they are: the buyer keeps what they
 * bought at a lower price; the refund that completes it revokes.
 */
export async function refundCharge(ctx: EventContext, charge: Stripe.Charge): Promise<Applied> {
  const { deps, tenantId } = ctx;
  if (!charge.refunded) return ignored('partial refund');
  const ref = await paymentRefOf(ctx, charge);
  if (!ref?.paymentId) return ignored('charge of no payment recorded here');
  const paymentId = ref.paymentId;
  const { data: payment } = await deps.data.entities.payment.get({ paymentId }).go({ consistent: true });
  if (!payment || payment.tenantId !== tenantId) return ignored('payment no longer exists');

  await revokeLicense(deps, tenantId, ref.licenseId).catch((error: unknown) => {
    // A license deleted since is nothing to revoke; the payment is still refunded.
    if (!(error instanceof NotFoundError)) throw error;
  });
  const now = deps.clock.now();
  const refunded = { ...payment, status: 'refunded' as const };
  const outcome = await transact(deps.data, (tx) => ({
    claim: processedMark(tx, ctx.claim, now),
    payment: payment.status === 'completed' && [
      tx.payment.patch({ paymentId }).set({ status: 'refunded' }).where(({ status }, { eq }) => eq(status, 'completed')).commit(),
      ...outboxEvent(tx, { tenantId, type: 'payment.refunded', data: toPayment(refunded), now }),
      ...overviewCountItems(tx, payment, refundChanges(payment, now)),
    ],
  }));
  if (outcome.committed) return APPLIED;
  if (outcome.refused('claim')) throw claimLost();
  // Refunded by another event meanwhile (Stripe sends one per refund of a charge).
  if (outcome.refused('payment')) return ignored('payment already refunded');
  throw outcome.unexpected();
}

/**
 * Our record of what a charge paid. A one-time purchase is recorded under its payment intent, which the charge
 * names. A subscription's payments are recorded under their invoices, which a charge no longer names (API versions
 * before 2025-03-31 did, and are still read): Stripe is asked which invoice the payment intent paid. Stripe down
 * or the key refused: 502 or 400, and Stripe delivers the event again.
 */
async function paymentRefOf(ctx: EventContext, charge: Stripe.Charge) {
  const recorded = await firstPaymentRef(ctx, chargePaymentIds(charge));
  const paymentIntent = chargePaymentIntentId(charge);
  if (recorded || !paymentIntent) return recorded;
  const invoicePayments = await ctx.stripe.invoicePayments
    .list({ payment: { type: 'payment_intent', payment_intent: paymentIntent } })
    .catch((error: unknown) => Promise.reject(providerFailure(error, KEY_REFUSED)));
  return firstPaymentRef(ctx, paidInvoiceIds(invoicePayments));
}

/** The first of these Stripe ids that names a payment of ours. */
async function firstPaymentRef({ deps, tenantId }: EventContext, stripeIds: string[]) {
  for (const stripeId of stripeIds) {
    const { data: ref } = await deps.data.entities.stripeRef.get({ tenantId, stripeId }).go({ consistent: true });
    if (ref?.paymentId) return ref;
  }
  return undefined;
}
