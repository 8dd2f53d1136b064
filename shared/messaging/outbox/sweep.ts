import { type EntityItem, writeItem } from '../../platform/data/index.js';
import { forwardOutboxItem, type ForwardDeps } from './forwarders.js';
import { OUTBOX_SHARDS, pendingKey } from './pending.js';

/**
 * An item still pending this long after it was written is the sweep's: the stream forwards within a second, and
 * gives a record up after its retries (about a minute) or at its maximum age (functions/outbox-fanout/stream-settings.ts).
 */
export const OUTBOX_SWEEP_GRACE_MS = 5 * 60_000;
/** One run forwards at most this many items per shard; the next run takes the rest. */
const SWEEP_BATCH_PER_SHARD = 200;
/** An item the sweep failed to forward waits before its next try: this long, doubled per failure up to the maximum. */
const RETRY_AFTER_MS = 5 * 60_000;
const MAX_RETRY_AFTER_MS = 60 * 60_000;

type PendingMarker = EntityItem<'outboxPending'>;

/** What could not be forwarded (an item, or a whole shard whose query failed), and why. */
export type OutboxSweepFailure = { shard: string; kind?: string; itemId?: string; createdAt?: string; tenantId?: string; error: unknown };
export type OutboxSweepResult = { forwarded: number; failures: OutboxSweepFailure[] };

/**
 * Forwards the outbox items the stream left behind: those still pending `OUTBOX_SWEEP_GRACE_MS` after they were
 * written (a key-range query per shard of the pending markers, never a scan), as the fan-out would have. An item that
 * fails is put off (a poisoned item holds up no other, and is not retried every run) and reported; the rest go on.
 * Runs may overlap or repeat safely: forwarding is at-least-once, and what it feeds acts once per item.
 */
export async function sweepOutbox(deps: ForwardDeps): Promise<OutboxSweepResult> {
  const now = deps.clock.now();
  const at = now.toISOString();
  const writtenBefore = new Date(now.getTime() - OUTBOX_SWEEP_GRACE_MS).toISOString();
  const result: OutboxSweepResult = { forwarded: 0, failures: [] };
  await Promise.all(
    OUTBOX_SHARDS.map(async (shard) => {
      let due: PendingMarker[];
      try {
        ({ data: due } = await deps.data.entities.outboxPending.query
          .byShard({ outboxShard: shard })
          .lt({ createdAt: writtenBefore })
          .where(({ retryAt }, { notExists, lte }) => `${notExists(retryAt)} OR ${lte(retryAt, at)}`)
          .go({ count: SWEEP_BATCH_PER_SHARD, pages: 'all' }));
      } catch (error) {
        result.failures.push({ shard, error });
        return;
      }
      for (const marker of due) {
        try {
          await forwardOutboxItem(deps, marker);
          result.forwarded++;
        } catch (error) {
          result.failures.push({ shard, kind: marker.kind, itemId: marker.itemId, createdAt: marker.createdAt, tenantId: marker.tenantId, error });
          // Not put off (the table refused that too): tried again at the next run.
          await putOff(deps, marker, now).catch(() => undefined);
        }
      }
    }),
  );
  return result;
}

/** Puts a failed item's next try off, longer after each failure; a marker removed meanwhile (forwarded) stays removed. */
async function putOff(deps: ForwardDeps, marker: PendingMarker, now: Date): Promise<void> {
  const failures = (marker.sweepFailures ?? 0) + 1;
  const wait = Math.min(RETRY_AFTER_MS * 2 ** (failures - 1), MAX_RETRY_AFTER_MS);
  await writeItem(() =>
    deps.data.entities.outboxPending
      .patch(pendingKey(marker))
      .set({ sweepFailures: failures, retryAt: new Date(now.getTime() + wait).toISOString() })
      .go(),
  );
}
