import type { EntityItem, TransactionEntities } from '../../platform/data/index.js';
import { NotFoundError } from '../../platform/index.js';
import { expiryItemChanges, indexFields, type LicenseItem, licenseStatusMoves, loadLicense } from '../../licensing/index.js';
import type { EventContext } from './event-context.js';

export type SubscriptionItem = EntityItem<'subscription'>;

/**
 * Our subscription for a Stripe subscription id (its `stripeRef`), with the license it renews (undefined when
 * the license was deleted since). Read strongly consistent: the transaction that follows conditions on it.
 */
export async function findSubscription(ctx: EventContext, stripeSubscriptionId: string) {
  const { deps, tenantId } = ctx;
  const { data: ref } = await deps.data.entities.stripeRef.get({ tenantId, stripeId: stripeSubscriptionId }).go({ consistent: true });
  if (!ref?.subscriptionId) return undefined;
  const { data: subscription } = await deps.data.entities.subscription.get({ subscriptionId: ref.subscriptionId }).go({ consistent: true });
  if (!subscription || subscription.tenantId !== tenantId) return undefined;
  const license = await loadLicense(deps, tenantId, ref.licenseId).catch((error: unknown) => {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  });
  return { ref, subscription, license };
}

/** The subscription written only if no other change landed since it was read. */
export function subscriptionPatch(tx: Pick<TransactionEntities, 'subscription'>, current: SubscriptionItem, next: SubscriptionItem) {
  const { status, currentPeriodStart, currentPeriodEnd, cancelAtPeriodEnd, canceledAt, providerEventAt, updatedAt } = next;
  const patch = tx.subscription
    .patch({ subscriptionId: current.subscriptionId })
    .set({
      status,
      cancelAtPeriodEnd,
      updatedAt,
      ...(providerEventAt !== undefined && { providerEventAt }),
      ...(currentPeriodStart && { currentPeriodStart }),
      ...(currentPeriodEnd && { currentPeriodEnd }),
      ...(canceledAt && { canceledAt }),
      ...planFields(next),
    });
  // A cancellation taken back in Stripe clears `canceledAt`; a plan change applied clears the pending one.
  const cleared = [
    ...(!canceledAt && current.canceledAt ? (['canceledAt'] as const) : []),
    ...(!next.pendingPlanId && current.pendingPlanId ? (['pendingPlanId', 'pendingPlanEffectiveAt'] as const) : []),
  ];
  return patch.remove(cleared).where(({ updatedAt: at }, { eq }) => eq(at, current.updatedAt)).commit();
}

/** The plan a subscription is on, and the one it moves to at period end (DECISIONS §15), as far as they are set. */
function planFields({ planId, planName, billingCycle, price, currency, pendingPlanId, pendingPlanEffectiveAt }: SubscriptionItem) {
  return Object.fromEntries(Object.entries({ planId, planName, billingCycle, price, currency, pendingPlanId, pendingPlanEffectiveAt }).filter(([, value]) => value !== undefined));
}

/**
 * A license's expiry moved to `expiresAt` (a renewal may also bring an expired license back to `active`), on the
 * condition that its status, expiry and grace are still those read; its expiry item and status counters follow. A
 * grace `next` no longer has is removed (a paid invoice ends it).
 */
export function licenseExpiryChange(tx: Pick<TransactionEntities, 'license' | 'licenseExpiry' | 'licenseReminder' | 'counter'>, current: LicenseItem, next: LicenseItem) {
  const patch = tx.license
    .patch({ licenseKey: current.licenseKey })
    .set({ ...indexFields(next), expiresAt: next.expiresAt!, updatedAt: next.updatedAt, ...(next.graceUntil && { graceUntil: next.graceUntil }) });
  return [
    (current.graceUntil && !next.graceUntil ? patch.remove(['graceUntil']) : patch)
      .where(({ licenseId, status, expiresAt, graceUntil }, op) =>
        [
          op.eq(licenseId, current.licenseId),
          op.eq(status, current.status),
          current.expiresAt ? op.eq(expiresAt, current.expiresAt) : op.notExists(expiresAt),
          current.graceUntil ? op.eq(graceUntil, current.graceUntil) : op.notExists(graceUntil),
        ].join(' AND '),
      )
      .commit(),
    ...licenseStatusMoves(tx.counter, current.tenantId, current.productId, current.status, next.status),
    // The identity only: the item's own fields would carry the old expiry into the new expiry item.
    ...expiryItemChanges(tx, { licenseId: current.licenseId, tenantId: current.tenantId, productId: current.productId }, current, next),
  ];
}
