import { newId } from '../../platform/index.js';
import type { TransactionEntities } from '../../platform/data/index.js';
import { pendingMarker } from '../outbox/pending.js';
import type { EventType } from './event-types.js';

/** Outbox items live a week: long enough for the stream consumer, or the sweep after it, to have forwarded them. */
const OUTBOX_RETENTION_SECONDS = 7 * 24 * 3600;

/**
 * The transaction items that record an event beside the change that causes it (DECISIONS §7), and mark it pending
 * until it is forwarded: put them in the same `transaction.write` as the change, and the event exists exactly when
 * the change does.
 */
export function outboxEvent(
  tx: Pick<TransactionEntities, 'outboxEvent' | 'outboxPending'>,
  event: { tenantId: string; type: EventType; data: unknown; now: Date },
) {
  const item = {
    eventId: newId('evt'),
    tenantId: event.tenantId,
    type: event.type,
    data: event.data,
    createdAt: event.now.toISOString(),
    ttl: Math.floor(event.now.getTime() / 1000) + OUTBOX_RETENTION_SECONDS,
  };
  return [
    tx.outboxEvent.create(item).commit(),
    pendingMarker(tx, { kind: 'outboxEvent', itemId: item.eventId, tenantId: item.tenantId, createdAt: item.createdAt, ttl: item.ttl }),
  ];
}
