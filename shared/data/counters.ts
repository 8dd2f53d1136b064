import type { Entities, TransactionEntities } from './service.js';

/**
 * Names of the per-tenant counters that give list totals in one read. A write that adds, removes or
 * moves an item between filters updates these names in its own transaction.
 */
export const counterNames = {
  licenses: (productId: string, status: string) => [
    'license',
    `license#status#${status}`,
    `license#product#${productId}`,
    `license#product#${productId}#status#${status}`,
  ],
  activations: (status: string) => ['activation', `activation#status#${status}`],
  customers: () => ['customer'],
};

/** Counter name of a license list filter (none, status, product, or both). */
export function licenseFilterCounter(filter: { status?: string; productId?: string }): string {
  const parts = ['license'];
  if (filter.productId) parts.push(`product#${filter.productId}`);
  if (filter.status) parts.push(`status#${filter.status}`);
  return parts.join('#');
}

/** Transaction items that add `delta` to each named counter of a tenant (counters start at 0). */
export function counterUpdates(counter: TransactionEntities['counter'], tenantId: string, names: string[], delta: number) {
  return names.map((name) => counter.update({ tenantId, name }).add({ count: delta }).commit());
}

export async function readCounter(counter: Entities['counter'], tenantId: string, name: string): Promise<number> {
  const { data } = await counter.get({ tenantId, name }).go();
  return data?.count ?? 0;
}
