import { counterNames, counterUpdates } from '../data/counters.js';
import type { TransactionEntities } from '../data/service.js';

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
