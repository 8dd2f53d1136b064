import type { MailQueue } from '../mail/mail-queue.js';
import type { Deps } from '../../platform/index.js';
import type { DeliveryQueue } from '../webhooks/delivery-queue.js';
import { fanOutEvent, type OutboxEvent } from '../webhooks/fan-out.js';
import { OUTBOX_ITEM_KINDS, type OutboxItemKind, type OutboxItemRef } from './kinds.js';
import { markForwarded } from './pending.js';

/** Where outbox items go: webhook deliveries, and e-mails. */
export type OutboxQueues = { deliveries: DeliveryQueue; mail: MailQueue };

export type ForwardDeps = Pick<Deps, 'data' | 'clock'> & { queues: OutboxQueues };

/** An item as the table's stream shows it (its new image, unmarshalled), ElectroDB's `__edb_e__` naming its entity. */
export type StreamImage = Record<string, unknown>;

type OutboxForwarder = {
  /** The attribute that keys the item, and names it in its pending marker. */
  idAttribute: string;
  /**
   * Hands the item on. `image` when the stream carried it; without (the sweep), what is needed is read by id. Safe to
   * repeat: what it feeds acts once per item (the dispatcher per delivery, the mail sender per e-mail).
   */
  forward(deps: ForwardDeps, itemId: string, image?: StreamImage): Promise<void>;
};

/** How each kind of outbox item is forwarded. */
const OUTBOX_FORWARDERS: Record<OutboxItemKind, OutboxForwarder> = {
  outboxEvent: {
    idAttribute: 'eventId',
    async forward(deps, eventId, image) {
      const { outboxEvent } = deps.data.entities;
      const { data: event } = image ? outboxEvent.parse({ Item: image }) : await outboxEvent.get({ eventId }).go({ consistent: true });
      // None: past its retention, nothing is left to deliver.
      if (event) await fanOutEvent({ ...deps, queue: deps.queues.deliveries }, event as OutboxEvent);
    },
  },
  // The message names the e-mail; the sender reads the rest from its item.
  licenseMail: { idAttribute: 'licenseId', forward: (deps, licenseId) => deps.queues.mail.enqueue({ licenseId }) },
  mail: { idAttribute: 'mailId', forward: (deps, mailId) => deps.queues.mail.enqueue({ mailId }) },
};

/** The outbox item a stream image shows; undefined for an item of another entity. */
export function outboxItemOf(image: StreamImage): OutboxItemRef | undefined {
  const kind = OUTBOX_ITEM_KINDS.find((k) => k === image.__edb_e__);
  if (!kind) return undefined;
  return { kind, itemId: String(image[OUTBOX_FORWARDERS[kind].idAttribute]), createdAt: String(image.createdAt) };
}

/**
 * Forwards an outbox item, then marks it forwarded: what the fan-out does for each stream record, and the sweep
 * for each item the stream left behind. A failure leaves the item pending, for the stream's retry or the sweep.
 */
export async function forwardOutboxItem(deps: ForwardDeps, ref: OutboxItemRef, image?: StreamImage): Promise<void> {
  await OUTBOX_FORWARDERS[ref.kind].forward(deps, ref.itemId, image);
  await markForwarded(deps, ref);
}
