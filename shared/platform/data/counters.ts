import { randomInt } from 'node:crypto';
import type { Entities, TransactionEntities } from './service.js';
import { readAll } from './writes.js';

/** Shards of every counter: a total costs one batch read of this many small items. */
const COUNTER_SHARDS = 16;
const SHARD_NAMES = Array.from({ length: COUNTER_SHARDS }, (_, n) => String(n));

/**
 * Names of the per-tenant counters that give list totals without counting items. A write that adds,
 * removes or moves an item between filters updates these names in its own transaction.
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
  deliveries: (webhookId: string) => [`delivery#webhook#${webhookId}`],
};

/** Counter name of a license list filter (none, status, product, or both). */
export function licenseFilterCounter(filter: { status?: string; productId?: string }): string {
  const parts = ['license'];
  if (filter.productId) parts.push(`product#${filter.productId}`);
  if (filter.status) parts.push(`status#${filter.status}`);
  return parts.join('#');
}

/**
 * Transaction items that add `delta` to each named counter of a tenant, all in one shard chosen at random
 * (a transaction may not touch one item twice, so the names must differ).
 */
export function counterUpdates(counter: TransactionEntities['counter'], tenantId: string, names: string[], delta: number) {
  const shard = SHARD_NAMES[randomInt(COUNTER_SHARDS)]!;
  return names.map((name) => counter.update({ tenantId, shard, name }).add({ count: delta }).commit());
}

/**
 * A counter's total: its shards, read in one batch. Keys that DynamoDB leaves unprocessed under load
 * are asked for again after a jittered pause, and 503 when they stay so.
 */
export async function readCounter(counter: Entities['counter'], tenantId: string, name: string): Promise<number> {
  const shards = await readAll(SHARD_NAMES.map((shard) => ({ tenantId, shard, name })), (keys) => counter.get(keys).go());
  return shards.reduce((sum, item) => sum + (item.count ?? 0), 0);
}
