import { dayOf } from '../analytics/days.js';
import { ALL_PRODUCTS, type EntityItem, GAUGE_DAY, type OverviewMetric, type TransactionEntities } from '../../platform/data/index.js';
import { toMinorUnits } from '../../platform/index.js';

/** One change to the overview: `by` added to `metric`/`name` of a day (or of the gauges, `GAUGE_DAY`). */
export type OverviewChange = { day: string; metric: OverviewMetric; name: string; by: number };

type Owner = { tenantId: string; productId?: string };

/**
 * Transaction items that add each change to the product's overview and to the tenant's all-products rollup (`ADD`:
 * no read, created at 0 first). A write without a product (a payment of a product since deleted keeps its id, so
 * only a payment recorded without one) counts in the rollup alone. Changes must name distinct counts: a transaction
 * may not touch one item twice.
 */
export function overviewCountItems(tx: Pick<TransactionEntities, 'overviewCount'>, owner: Owner, changes: OverviewChange[]) {
  const scopes = owner.productId ? [owner.productId, ALL_PRODUCTS] : [ALL_PRODUCTS];
  return scopes.flatMap((scope) =>
    changes.filter((change) => change.by !== 0).map(({ day, metric, name, by }) => tx.overviewCount.update({ tenantId: owner.tenantId, scope, day, metric, name }).add({ count: by }).commit()),
  );
}

/** A payment made on `at`: gross revenue of its day, and of the account's lifetime (which names its main currency). */
export function paymentChanges(payment: { amount: number; currency: string; createdAt: string }): OverviewChange[] {
  const minor = toMinorUnits(payment.amount, payment.currency);
  return [
    { day: dayOf(new Date(payment.createdAt)), metric: 'revenue', name: payment.currency, by: minor },
    { day: GAUGE_DAY, metric: 'lifetimeRevenue', name: payment.currency, by: minor },
  ];
}

/** A payment refunded on `at`: counted apart from revenue, on the refund's day. */
export function refundChanges(payment: { amount: number; currency: string }, at: Date): OverviewChange[] {
  const day = dayOf(at);
  return [
    { day, metric: 'refunds', name: payment.currency, by: toMinorUnits(payment.amount, payment.currency) },
    { day, metric: 'refundCount', name: payment.currency, by: 1 },
  ];
}

/** A license created (issued, bought or made by hand). */
export const licenseCreatedChanges = (license: Pick<EntityItem<'license'>, 'createdAt'>): OverviewChange[] => [
  { day: dayOf(new Date(license.createdAt)), metric: 'newLicenses', name: 'all', by: 1 },
];

/** A subscription's yearly price in minor units: twelve monthly prices, or the yearly one. */
export function yearlyMinor(subscription: { price?: number; currency?: string; billingCycle?: string }): number {
  if (subscription.price === undefined || !subscription.currency) return 0;
  const minor = toMinorUnits(subscription.price, subscription.currency);
  return subscription.billingCycle === 'monthly' ? minor * 12 : subscription.billingCycle === 'yearly' ? minor : 0;
}

/** A subscription started (+1) or ended (-1): the active count and the recurring revenue move; an end is churn on its day. */
export function subscriptionChanges(subscription: { price?: number; currency?: string; billingCycle?: string }, direction: 1 | -1, at: Date): OverviewChange[] {
  const changes: OverviewChange[] = [{ day: GAUGE_DAY, metric: 'activeSubscriptions', name: 'all', by: direction }];
  const yearly = yearlyMinor(subscription);
  if (yearly > 0) changes.push({ day: GAUGE_DAY, metric: 'arr', name: subscription.currency!, by: direction * yearly });
  if (direction === -1) changes.push({ day: dayOf(at), metric: 'churned', name: 'all', by: 1 });
  return changes;
}
