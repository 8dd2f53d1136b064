import { type ConditionOperations, counterNames, counterUpdates, type TransactionEntities } from '../../platform/data/index.js';

type Counter = TransactionEntities['counter'];

/**
 * Counter items that move one license from one status to another. Only the names that differ are
 * touched: a transaction may not write the same counter item twice.
 */
export function licenseStatusMoves(counter: Counter, tenantId: string, productId: string, from: string, to: string) {
  const before = counterNames.licenses(productId, from);
  const after = counterNames.licenses(productId, to);
  return [
    ...counterUpdates(counter, tenantId, before.filter((name) => !after.includes(name)), -1),
    ...counterUpdates(counter, tenantId, after.filter((name) => !before.includes(name)), 1),
  ];
}

/** Counter items that move `count` activations from `active` to `deactivated`. */
export function activationsDeactivated(counter: Counter, tenantId: string, count: number) {
  const before = counterNames.activations('active');
  const after = counterNames.activations('deactivated');
  return [
    ...counterUpdates(counter, tenantId, before.filter((name) => !after.includes(name)), -count),
    ...counterUpdates(counter, tenantId, after.filter((name) => !before.includes(name)), count),
  ];
}

/**
 * A condition that the license's `stagingCount` is still `count`, as read: absent on a license that never had a
 * staging site, which reads as 0. Writes that copy or drop the license (regenerate, delete) or move its counts by
 * what they read (revoke) hold it beside `activatedCount`.
 */
export function stagingCountIs(stagingCount: unknown, { eq, notExists }: ConditionOperations, count: number | undefined): string {
  return count ? eq(stagingCount, count) : `(${notExists(stagingCount)} OR ${eq(stagingCount, 0)})`;
}
