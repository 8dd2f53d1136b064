/**
 * An audit entry's `changes` ({field: [before, after]}) from what a transaction does to one item: its stored state
 * before, and its Put, Update or Delete as ElectroDB built it. Keys, index keys, ElectroDB's markers and bookkeeping
 * are no field of the resource; secrets show as `***`.
 */
import type { TransactItem } from '../../platform/data/index.js';

type Stored = Record<string, unknown>;
export type Changes = Record<string, [unknown, unknown]>;

const INTERNAL = /^(pk|sk|gsi\d+(pk|sk)|__edb_[ev]__|ttl|updatedAt)$/;
const SECRET = /secret|password|hash|token|privatekey|sealed|encrypted/i;

export const keyOf = (item: TransactItem) => item.Update?.Key ?? item.Delete?.Key ?? (item.Put && { pk: item.Put.Item.pk, sk: item.Put.Item.sk });

/** The item after an Update: its `SET #a = :v`, `REMOVE #a` and `ADD #a :n` clauses applied to what was stored. */
function updated(before: Stored, update: NonNullable<TransactItem['Update']>): Stored {
  const names = update.ExpressionAttributeNames ?? {};
  const values = update.ExpressionAttributeValues ?? {};
  const after = { ...before };
  for (const clause of update.UpdateExpression.split(/\s(?=SET |REMOVE |ADD |DELETE )/)) {
    const [verb, ...rest] = clause.trim().split(' ');
    for (const part of rest.join(' ').split(/,\s*/)) {
      const set = /^(#\w+)\s*=\s*(:\w+)$/.exec(part.trim());
      const add = /^(#\w+)\s+(:\w+)$/.exec(part.trim());
      if (verb === 'SET' && set) after[names[set[1]!]!] = values[set[2]!];
      else if (verb === 'REMOVE') delete after[names[part.trim()]!];
      else if (verb === 'ADD' && add) after[names[add[1]!]!] = Number(before[names[add[1]!]!] ?? 0) + Number(values[add[2]!]);
    }
  }
  return after;
}

/** The item as the change leaves it: the Put's item, the Update applied, nothing after a Delete. */
export function itemAfter(item: TransactItem, before: Stored | undefined): Stored | undefined {
  if (item.Put) return item.Put.Item;
  if (item.Update) return updated(before ?? {}, item.Update);
  return undefined;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * A value as an entry may hold it: `***` for a secret field, and inside lists and maps every secret field likewise, at
 * any depth (DECISIONS §20: a product's `signingKeys` are maps that each hold a sealed private key).
 */
function redacted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redacted);
  // Only maps hold fields: a string set, or anything else, is shown as it is.
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return value;
  return Object.fromEntries(Object.entries(value).map(([field, inner]) => [field, SECRET.test(field) ? '***' : redacted(inner)]));
}
const shown = (field: string, value: unknown) => (value === undefined || value === null ? null : SECRET.test(field) ? '***' : redacted(value));

export function changesBetween(before: Stored | undefined, after: Stored | undefined): Changes {
  const changes: Changes = {};
  const fields = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const field of [...fields].sort()) {
    if (INTERNAL.test(field) || same(before?.[field], after?.[field])) continue;
    changes[field] = [shown(field, before?.[field]), shown(field, after?.[field])];
  }
  return changes;
}
