import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, paginateScan } from '@aws-sdk/lib-dynamodb';

/** Items a refused request may write: attempt counters, not data. Told apart by ElectroDB's entity marker. */
const BOOKKEEPING_ENTITIES = new Set(['rateLimit']);

export type TableSnapshot = Map<string, string>;

/**
 * Every item of the table (bookkeeping left out, and the entities `ignored` names), by primary key, as JSON with
 * sorted attributes.
 */
export async function snapshotTable(endpoint: string, tableName: string, ignored: readonly string[] = []): Promise<TableSnapshot> {
  const client = DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
  );
  const items = new Map<string, string>();
  try {
    for await (const page of paginateScan({ client }, { TableName: tableName, ConsistentRead: true })) {
      for (const item of page.Items ?? []) {
        if (BOOKKEEPING_ENTITIES.has(item.__edb_e__) || ignored.includes(item.__edb_e__)) continue;
        items.set(`${item.pk} | ${item.sk}`, JSON.stringify(sortedKeys(item)));
      }
    }
  } finally {
    client.destroy();
  }
  return items;
}

/** The value with every object's keys in order, so equal items serialize equally. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value instanceof Set) return [...value].map(sortedKeys).sort();
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sortedKeys((value as Record<string, unknown>)[key])]));
}

/** What changed between two snapshots, one line per item: `+` written, `-` deleted, `~` changed. */
export function snapshotChanges(before: TableSnapshot, after: TableSnapshot): string[] {
  const changes: string[] = [];
  for (const [key, item] of after) {
    if (!before.has(key)) changes.push(`+ ${item}`);
    else if (before.get(key) !== item) changes.push(`~ ${before.get(key)} → ${item}`);
  }
  for (const [key, item] of before) if (!after.has(key)) changes.push(`- ${item}`);
  return changes;
}

/** `take`'s snapshot once what runs after a change (the webhook pipeline, the audit chain's linker) has settled: two in a row that agree. */
export async function settledSnapshot(take: () => Promise<TableSnapshot>): Promise<TableSnapshot> {
  let last = await take();
  for (const deadline = Date.now() + 15_000; Date.now() < deadline; ) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const next = await take();
    if (snapshotChanges(last, next).length === 0) return next;
    last = next;
  }
  throw new Error('the table kept changing');
}
