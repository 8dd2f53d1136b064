import { Entity } from 'electrodb';
import { OUTBOX_ITEM_KINDS } from '../attribute-values.js';
import { model, primaryKey } from '../keys.js';

/**
 * An outbox item not yet forwarded: written in the item's transaction, deleted by whoever forwards it (the fan-out
 * from the stream, or the sweep). Spread over shards by a hash of the item's id and sorted by the item's time, so the
 * sweep finds what the stream left behind with one key-range query per shard, never a scan. Under 300 bytes; TTL as
 * its item's.
 */
export const outboxPendingEntity = () =>
  new Entity({
    model: model('outboxPending'),
    attributes: {
      outboxShard: { type: 'string', required: true },
      /** The item's `createdAt`. */
      createdAt: { type: 'string', required: true },
      kind: { type: OUTBOX_ITEM_KINDS, required: true },
      /** The id that keys the item (`eventId`, `licenseId`). */
      itemId: { type: 'string', required: true },
      tenantId: { type: 'string', required: true },
      /** Forwards the sweep tried and failed; it tries again from `retryAt` on. */
      sweepFailures: { type: 'number' },
      retryAt: { type: 'string' },
      ttl: { type: 'number', required: true },
    },
    indexes: { byShard: primaryKey(['outboxShard'], ['createdAt', 'kind', 'itemId']) },
  });
