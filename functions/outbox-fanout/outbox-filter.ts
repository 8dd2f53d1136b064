import { OUTBOX_ITEM_KINDS } from '../../shared/messaging/index.js';

/**
 * The stream records the fan-out receives: inserts of outbox items, the events for webhooks and the license
 * e-mails (ElectroDB marks every item with its entity name in `__edb_e__`). In AWS this is the event source
 * mapping's filter; the local stream poller applies the same pattern, so both select the same records.
 */
export const OUTBOX_INSERT_FILTER = {
  eventName: ['INSERT'],
  dynamodb: { NewImage: { __edb_e__: { S: [...OUTBOX_ITEM_KINDS] } } },
};

/** Inserts of audit entries, which the fan-out links into their tenant's chain (shared/identity/audit/audit-linker.ts). */
export const AUDIT_ENTRY_INSERT_FILTER = {
  eventName: ['INSERT'],
  dynamodb: { NewImage: { __edb_e__: { S: ['auditEntry'] } } },
};

/** Every filter of the fan-out's event source: a record matching any of them is delivered. */
export const FAN_OUT_FILTERS = [OUTBOX_INSERT_FILTER, AUDIT_ENTRY_INSERT_FILTER];

type Pattern = { [key: string]: string[] | Pattern };

/** Whether the fan-out's event source delivers the record (Lambda ORs an event source's filters). */
export const deliveredToFanOut = (record: unknown) => FAN_OUT_FILTERS.some((filter) => matchesFilter(filter, record));

/** Lambda filter semantics for this subset: arrays list the allowed values, objects match nested fields. */
export function matchesFilter(pattern: Pattern, value: unknown): boolean {
  return Object.entries(pattern).every(([key, expected]) => {
    const actual = (value as Record<string, unknown> | undefined)?.[key];
    return Array.isArray(expected) ? expected.includes(actual as string) : matchesFilter(expected, actual);
  });
}
