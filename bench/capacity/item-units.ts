import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { GLOBAL_INDEXES, TABLE_KEYS } from '../../shared/platform/data/table-schema.js';

/**
 * Write units computed from item sizes by DynamoDB's published rules, as a check on what DynamoDB Local
 * reports (Local's figures for transactions count each index update as a delete and a put, and double them):
 * - an item's size is the UTF-8 length of each attribute name plus its value's size;
 * - a write is 1 unit per started KB of the larger of the item's old and new image; 2 in a transaction;
 * - each index the item is in costs a write of its entry (what the index projects: the whole item, or the table's
 *   and the index's keys with the attributes it includes): one when the entry is put, updated in place or deleted,
 *   two when its key changes (delete + put), none when nothing it holds changed. Index writes are counted as
 *   standard writes, transaction or not.
 */
export type Image = Record<string, AttributeValue> | undefined;

const KB = 1024;
const utf8 = (text: string) => Buffer.byteLength(text, 'utf8');

function valueSize(value: AttributeValue): number {
  if (value.S !== undefined) return utf8(value.S);
  // A number: about one byte per two significant digits, plus one.
  if (value.N !== undefined) return Math.ceil(value.N.replace(/^[-0.]+|[.eE].*$/g, '').length / 2) + 1;
  if (value.B !== undefined) return value.B.length;
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  if (value.SS) return value.SS.reduce((sum, s) => sum + utf8(s), 0);
  if (value.NS) return value.NS.reduce((sum, n) => sum + valueSize({ N: n }), 0);
  if (value.L) return 3 + value.L.reduce((sum, v) => sum + 1 + valueSize(v), 0);
  if (value.M) return 3 + Object.entries(value.M).reduce((sum, [name, v]) => sum + 1 + utf8(name) + valueSize(v), 0);
  return 0;
}

export function itemSize(item: Image): number {
  return item ? Object.entries(item).reduce((sum, [name, value]) => sum + utf8(name) + valueSize(value), 0) : 0;
}

const units = (bytes: number) => Math.max(1, Math.ceil(bytes / KB));
const same = (a: Image, b: Image) => JSON.stringify(a) === JSON.stringify(b);

/** Write units of one item's write, by where they land (`table`, `gsi1` …), from its images before and after. */
export function writeUnits(before: Image, after: Image, transactional: boolean): Map<string, number> {
  const result = new Map<string, number>([['table', units(Math.max(itemSize(before), itemSize(after))) * (transactional ? 2 : 1)]]);
  if (same(before, after)) return result;
  for (const { indexName, partitionKey, sortKey, projection } of GLOBAL_INDEXES) {
    const keyIn = (item: Image) => (item?.[partitionKey] && item[sortKey] ? JSON.stringify([item[partitionKey], item[sortKey]]) : undefined);
    const projected = new Set([TABLE_KEYS.partitionKey, TABLE_KEYS.sortKey, partitionKey, sortKey]);
    const entry = (item: Image): Image => (item && projection.type === 'KEYS_ONLY' ? Object.fromEntries(Object.entries(item).filter(([name]) => projected.has(name))) : item);
    const [was, is] = [keyIn(before), keyIn(after)];
    if (was && is && was === is && same(entry(before), entry(after))) continue;
    const writes =
      was && is
        ? was === is
          ? units(itemSize(entry(after)))
          : units(itemSize(entry(before))) + units(itemSize(entry(after)))
        : was
          ? units(itemSize(entry(before)))
          : is
            ? units(itemSize(entry(after)))
            : 0;
    if (writes) result.set(indexName, writes);
  }
  return result;
}
