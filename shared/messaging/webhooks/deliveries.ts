import { createHash } from 'node:crypto';
import { base32 } from '@scure/base';
import { counterNames, counterUpdates, type EntityItem, readCounter, transact } from '../../platform/data/index.js';
import { type Deps, newId, NotFoundError, type Page, pageOf } from '../../platform/index.js';
import type { DeliveryQueue } from './delivery-queue.js';
import { loadWebhook } from './webhooks.js';

type DeliveryDeps = Pick<Deps, 'data' | 'clock'>;

/** The body every delivery of an event carries (DECISIONS §7); its `id` is also the `webhook-id` header. */
export type EventEnvelope = { id: string; type: string; createdAt: string; data: unknown };

type DeliveryItem = EntityItem<'delivery'>;

export function toDelivery(item: DeliveryItem) {
  return {
    id: item.deliveryId,
    eventId: item.eventId,
    eventType: item.eventType,
    status: item.status,
    attempts: item.attempts,
    responseStatus: item.responseStatus ?? null,
    lastError: item.lastError ?? null,
    lastAttemptAt: item.lastAttemptAt ?? null,
    nextAttemptAt: item.nextAttemptAt ?? null,
    createdAt: item.createdAt,
  };
}
export type Delivery = ReturnType<typeof toDelivery>;


/**
 * The id of an event's first delivery to a webhook, derived from both, so that a stream record seen
 * twice finds the delivery it already made instead of making another. (The inputs are random ids,
 * so the result is as unguessable as a fresh one.)
 */
export function firstDeliveryId(eventId: string, webhookId: string): string {
  const digest = createHash('sha256').update(`${eventId}:${webhookId}`).digest().subarray(0, 15);
  return `dlv_${base32.encode(digest).toLowerCase()}`;
}

/**
 * Records a pending delivery and counts it for the webhook's list, in one transaction. `exists` when a
 * delivery with this id was already recorded (nothing is written then); any other failure throws, so a
 * caller can never take an unwritten delivery for a recorded one.
 */
export async function recordDelivery(
  deps: DeliveryDeps,
  delivery: { deliveryId: string; webhookId: string; tenantId: string; event: EventEnvelope; payload: string },
): Promise<{ recorded: 'created'; item: DeliveryItem } | { recorded: 'exists' }> {
  const { deliveryId, webhookId, tenantId, event, payload } = delivery;
  const item: DeliveryItem = {
    deliveryId,
    webhookId,
    tenantId,
    eventId: event.id,
    eventType: event.type,
    payload,
    status: 'pending',
    attempts: 0,
    createdAt: deps.clock.now().toISOString(),
  };
  const outcome = await transact(deps.data, (tx) => ({
    delivery: tx.delivery.create(item).commit(),
    counters: counterUpdates(tx.counter, tenantId, counterNames.deliveries(webhookId), 1),
  }));
  if (outcome.committed) return { recorded: 'created', item };
  if (outcome.refused('delivery')) return { recorded: 'exists' };
  throw outcome.unexpected();
}

export async function getDeliveryItem(deps: Pick<Deps, 'data'>, deliveryId: string) {
  const { data } = await deps.data.entities.delivery.get({ deliveryId }).go({ consistent: true });
  return data;
}

/** A webhook's deliveries, newest first. */
export async function listDeliveries(
  deps: DeliveryDeps,
  tenantId: string,
  webhookId: string,
  options: { page: number; perPage: number },
): Promise<Page<Delivery>> {
  await loadWebhook(deps, tenantId, webhookId);
  const [total, { data }] = await Promise.all([
    readCounter(deps.data.entities.counter, tenantId, counterNames.deliveries(webhookId)[0]!),
    deps.data.entities.delivery.query
      .byWebhook({ webhookId })
      .go({ order: 'desc', count: options.page * options.perPage, pages: 'all' }),
  ]);
  const items = data.slice((options.page - 1) * options.perPage).map(toDelivery);
  return pageOf(items, options.page, options.perPage, total);
}

/** A new delivery of the same event (same body, same `webhook-id`) to the webhook, queued at once. */
export async function redeliver(
  deps: DeliveryDeps & { queue: DeliveryQueue },
  tenantId: string,
  webhookId: string,
  deliveryId: string,
): Promise<Delivery> {
  await loadWebhook(deps, tenantId, webhookId);
  const original = await getDeliveryItem(deps, deliveryId);
  if (!original || original.webhookId !== webhookId || original.tenantId !== tenantId) throw new NotFoundError('Delivery not found');
  const event = JSON.parse(original.payload) as EventEnvelope;
  const recorded = await recordDelivery(deps, { deliveryId: newId('dlv'), webhookId, tenantId, event, payload: original.payload });
  // A fresh random id cannot exist already.
  if (recorded.recorded !== 'created') throw new Error('delivery id collision');
  await deps.queue.enqueue(recorded.item.deliveryId);
  return toDelivery(recorded.item);
}
