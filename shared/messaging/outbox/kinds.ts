import { OUTBOX_ITEM_KINDS } from '../../platform/data/index.js';

/**
 * The kinds of outbox item: entities written in the transaction of the change that causes them, each with its
 * pending marker (shared/messaging/outbox/pending.ts), and forwarded from the table's stream by the fan-out, or by the sweep
 * when the stream did not. A new kind joins here, gets its forwarder (shared/messaging/outbox/forwarders.ts, which does not
 * compile without it) and writes its marker beside its item.
 */
export { OUTBOX_ITEM_KINDS };

export type OutboxItemKind = (typeof OUTBOX_ITEM_KINDS)[number];

/** An outbox item as its pending marker names it. */
export type OutboxItemRef = { kind: OutboxItemKind; itemId: string; createdAt: string };
