import { newId } from '../ids.js';
import type { TransactionEntities } from '../data/service.js';
import type { EventType } from './event-types.js';

/** Outbox items live a week: long enough for the stream consumer to have forwarded them. */
const OUTBOX_RETENTION_SECONDS = 7 * 24 * 3600;

/**
 * The transaction item that records an event beside the change that causes it (DECISIONS §7):
 * put it in the same `transaction.write` as the change, and the event exists exactly when the change does.
 */
export function outboxEvent(outbox: TransactionEntities['outboxEvent'], event: { tenantId: string; type: EventType; data: unknown; now: Date }) {
  return outbox
    .create({
      eventId: newId('evt'),
      tenantId: event.tenantId,
      type: event.type,
      data: event.data,
      createdAt: event.now.toISOString(),
      ttl: Math.floor(event.now.getTime() / 1000) + OUTBOX_RETENTION_SECONDS,
    })
    .commit();
}
