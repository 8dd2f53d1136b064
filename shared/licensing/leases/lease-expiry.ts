import { transact } from '../../platform/data/index.js';
import { outboxEvent } from '../../messaging/index.js';
import type { Deps } from '../../platform/index.js';
import { LEASE_SHARDS, toLease } from './lease-view.js';

/** One run handles at most this many expired leases per shard; the next run takes the rest. */
const BATCH_PER_SHARD = 200;

export type LeaseExpiryResult = { expired: number; skipped: number };

/**
 * Tells of leases that ended without a release (`lease.expired`). Their seats were free at their expiry times
 * already (a slot's condition reads its `expiresAt`), so this job frees nothing: it notices. It reads only due
 * leases (a key-range query of the lease index per shard) and deletes each with its event in one transaction,
 * conditioned on the end it read, so a heartbeat that won the race keeps the lease and a repeated run sends nothing twice.
 */
export async function expireLeases(deps: Pick<Deps, 'data' | 'clock'>): Promise<LeaseExpiryResult> {
  const now = deps.clock.now();
  const result: LeaseExpiryResult = { expired: 0, skipped: 0 };
  await Promise.all(
    LEASE_SHARDS.map(async (leaseShard) => {
      const { data: due } = await deps.data.entities.lease.query
        .byExpiry({ leaseShard })
        .lte({ expiresAt: now.toISOString() })
        .go({ count: BATCH_PER_SHARD, pages: 'all' });
      for (const lease of due) {
        const outcome = await transact(deps.data, (tx) => ({
          lease: tx.lease
            .delete({ leaseId: lease.leaseId })
            .where((item, { eq }) => eq(item.expiresAt, lease.expiresAt))
            .commit(),
          event: outboxEvent(tx, { tenantId: lease.tenantId, type: 'lease.expired', data: toLease(lease), now }),
        }));
        result[outcome.committed ? 'expired' : 'skipped']++;
      }
    }),
  );
  return result;
}
