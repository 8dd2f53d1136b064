import type { Deps } from '../../platform/index.js';
import { firstDeliveryId, getDeliveryItem, recordDelivery, type EventEnvelope } from './deliveries.js';
import type { DeliveryQueue } from './delivery-queue.js';
import { listWebhookItems } from './webhooks.js';

/** An event as the outbox recorded it. */
export type OutboxEvent = { eventId: string; tenantId: string; type: string; data: unknown; createdAt: string };

/**
 * One delivery and one queue message per enabled webhook of the tenant subscribed to the event when it happened: a
 * webhook made after the event (the stream may forward it seconds later) does not receive it.
 * Safe to repeat for the same event (stream records can arrive twice): an existing delivery is not
 * made again, and its message is sent again only while it has not been attempted, in case the first
 * run stopped between recording the delivery and queueing it. Returns the number of deliveries queued.
 */
export async function fanOutEvent(deps: Pick<Deps, 'data' | 'clock'> & { queue: DeliveryQueue }, event: OutboxEvent): Promise<number> {
  const webhooks = (await listWebhookItems(deps, event.tenantId)).filter((w) => w.enabled && w.events.includes(event.type) && w.createdAt <= event.createdAt);
  const envelope: EventEnvelope = { id: event.eventId, type: event.type, createdAt: event.createdAt, data: event.data };
  const payload = JSON.stringify(envelope);
  const queued = await Promise.all(
    webhooks.map(async ({ webhookId }) => {
      const deliveryId = firstDeliveryId(event.eventId, webhookId);
      const { recorded } = await recordDelivery(deps, { deliveryId, webhookId, tenantId: event.tenantId, event: envelope, payload });
      if (recorded === 'exists') {
        const existing = await getDeliveryItem(deps, deliveryId);
        if (existing?.status !== 'pending' || existing.attempts > 0) return false;
      }
      await deps.queue.enqueue(deliveryId);
      return true;
    }),
  );
  return queued.filter(Boolean).length;
}
