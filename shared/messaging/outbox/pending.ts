import { createHash } from 'node:crypto';
import { type TransactionEntities, writeItem } from '../../platform/data/index.js';
import type { Deps } from '../../platform/index.js';
import type { OutboxItemRef } from './kinds.js';

/** Pending markers are spread over this many partitions; the sweep queries each. */
const OUTBOX_SHARD_COUNT = 16;
export const OUTBOX_SHARDS = Array.from({ length: OUTBOX_SHARD_COUNT }, (_, n) => String(n));

function outboxShard(itemId: string): string {
  return String(createHash('sha256').update(itemId).digest()[0]! % OUTBOX_SHARD_COUNT);
}

/** The marker's key: everything in it comes from the item, so the fan-out finds it from the stream's image alone. */
export const pendingKey = ({ kind, itemId, createdAt }: OutboxItemRef) => ({ outboxShard: outboxShard(itemId), createdAt, kind, itemId });

/** The transaction item that marks an outbox item pending: put it beside the item, with the item's time and TTL. */
export function pendingMarker(tx: Pick<TransactionEntities, 'outboxPending'>, item: OutboxItemRef & { tenantId: string; ttl: number }) {
  return tx.outboxPending.put({ ...pendingKey(item), tenantId: item.tenantId, ttl: item.ttl }).commit();
}

/** Marks an item forwarded (removes its marker), once what it feeds has it. */
export async function markForwarded(deps: Pick<Deps, 'data'>, ref: OutboxItemRef): Promise<void> {
  await writeItem(() => deps.data.entities.outboxPending.delete(pendingKey(ref)).go());
}
