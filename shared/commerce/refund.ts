import type Stripe from 'stripe';
import { toPayment } from '../customers/billing-views.js';
import { transact } from '../data/writes.js';
import { outboxEvent } from '../events/outbox.js';
import { NotFoundError } from '../errors.js';
import { revokeLicense } from '../licenses/revoke-license.js';
import { processedMark } from './event-claims.js';
import { APPLIED, claimLost, ignored, type Applied, type EventContext } from './event-context.js';
import { chargePaymentIds } from './stripe-mapping.js';

/**
 * `charge.refunded` (a full refund): the license bought with the payment is revoked (its activations ended, with
 * `license.revoked`), then the payment is marked `refunded` with `payment.refunded` in one transaction with the
 * event's processed mark. Revoking first keeps a crash between the two harmless: the retry finds the license
 * revoked (no second event) and commits the rest. A partial refund leaves the license and payment as they are.
 */
export async function refundCharge(ctx: EventContext, charge: Stripe.Charge): Promise<Applied> {
  const { deps, tenantId } = ctx;
  if (!charge.refunded) return ignored('partial refund');
  let ref;
  for (const stripeId of chargePaymentIds(charge)) {
    ({ data: ref } = await deps.data.entities.stripeRef.get({ tenantId, stripeId }).go({ consistent: true }));
    if (ref?.paymentId) break;
  }
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
    ],
  }));
  if (outcome.committed) return APPLIED;
  if (outcome.refused('claim')) throw claimLost();
  // Refunded by another event meanwhile (Stripe sends one per refund of a charge).
  if (outcome.refused('payment')) return ignored('payment already refunded');
  throw outcome.unexpected();
}
