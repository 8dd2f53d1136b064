import { OUTBOX_ITEM_KINDS } from '../../shared/outbox/kinds.js';

/**
 * The stream records the fan-out receives: inserts of outbox items, the events for webhooks and the license
 * e-mails (ElectroDB marks every item with its entity name in `__edb_e__`). In AWS this is the event source
 * mapping's filter; the local stream poller applies the same pattern, so both select the same records.
 */
export const OUTBOX_INSERT_FILTER = {
  eventName: ['INSERT'],
  dynamodb: { NewImage: { __edb_e__: { S: [...OUTBOX_ITEM_KINDS] } } },
};

type Pattern = { [key: string]: string[] | Pattern };

/** Lambda filter semantics for this subset: arrays list the allowed values, objects match nested fields. */
export function matchesFilter(pattern: Pattern, value: unknown): boolean {
  return Object.entries(pattern).every(([key, expected]) => {
    const actual = (value as Record<string, unknown> | undefined)?.[key];
    return Array.isArray(expected) ? expected.includes(actual as string) : matchesFilter(expected, actual);
  });
}
