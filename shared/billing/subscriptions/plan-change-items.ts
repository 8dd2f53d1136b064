import { toSubscription } from '../billing-views.js';
import type { EntityItem, TransactionEntities } from '../../platform/data/index.js';
import { outboxEvent } from '../../messaging/index.js';
import { type LicenseItem, type ProductSummary, toLicense } from '../../licensing/index.js';
import { subscriptionPatch, type SubscriptionItem } from '../commerce/subscription-records.js';

type PlanItem = EntityItem<'plan'>;
type PlanChangeTx = Pick<TransactionEntities, 'subscription' | 'license' | 'outboxEvent' | 'outboxPending'>;

/** A subscription moved onto `plan` (a pending change to it applied, so cleared). */
export function onPlan(subscription: SubscriptionItem, plan: PlanItem, updatedAt: string): SubscriptionItem {
  const { pendingPlanId: _pending, pendingPlanEffectiveAt: _at, ...rest } = subscription;
  return { ...rest, planId: plan.planId, planName: plan.name, billingCycle: plan.billingCycle, price: plan.price, currency: plan.currency, updatedAt };
}

/**
 * A plan change taking effect (DECISIONS §15), in one transaction with whatever else the caller commits: the
 * subscription as `next` (conditioned on being unchanged since read), the license's `planId`, `seats` and `features` (its key,
 * activations and expiry stay; a pending downgrade's `pendingSeats` go, its plan being applied or replaced), and
 * `subscription.updated` with `license.updated`. `seatsHeld`: the license is
 * written only while its active sites fit the new seats (slot `license`; the subscription's is `subscription`) (a change asked for through the API); a change Stripe reports
 * has been paid for and applies regardless (new activations are refused until sites are deactivated).
 */
export function planChangeItems(
  tx: PlanChangeTx,
  change: { current: SubscriptionItem; next: SubscriptionItem; license: LicenseItem | undefined; plan: PlanItem; product: ProductSummary; now: Date; seatsHeld: boolean },
) {
  const { current, next, license, plan, product, now } = change;
  // The features move with the seats (DECISIONS §23).
  const features = plan.features ?? [];
  const nextLicense = license && { ...license, planId: plan.planId, seats: plan.siteLimit, features, updatedAt: now.toISOString() };
  return {
    subscription: [subscriptionPatch(tx, current, next), ...outboxEvent(tx, { tenantId: current.tenantId, type: 'subscription.updated', data: toSubscription(next), now })],
    license:
      license && nextLicense
        ? [
          tx.license
            .patch({ licenseKey: license.licenseKey })
            .set({ planId: plan.planId, seats: plan.siteLimit, features, updatedAt: nextLicense.updatedAt })
            .remove(['pendingSeats'])
            .where(({ licenseId, activatedCount }, op) =>
              change.seatsHeld ? `${op.eq(licenseId, license.licenseId)} AND ${op.lte(activatedCount, plan.siteLimit)}` : op.eq(licenseId, license.licenseId),
            )
            .commit(),
          ...outboxEvent(tx, { tenantId: current.tenantId, type: 'license.updated', data: toLicense(nextLicense, product, now), now }),
        ]
        : [],
  };
}
