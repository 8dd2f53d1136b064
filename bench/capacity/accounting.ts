import { DynamoDBClient, GetItemCommand, type AttributeValue, type ConsumedCapacity, type TransactWriteItem } from '@aws-sdk/client-dynamodb';
import type { Clients } from '../../shared/platform/clients.js';
import { itemSize, writeUnits, type Image } from './item-units.js';

/**
 * Capacity accounting on a handler's own table client (bench/write-units.ts, bench/analytics.ts): a middleware
 * asks every request for `ReturnConsumedCapacity: 'INDEXES'` and sums what DynamoDB answers, and each write is
 * also computed from the items' sizes before and after it (./item-units.ts), read by a client of its own.
 */

/** What one operation cost, summed over its DynamoDB requests. */
export type Units = {
  requests: number;
  /** Write requests among them (PutItem, UpdateItem, DeleteItem, TransactWriteItems, BatchWriteItem). */
  writeRequests: number;
  /** Requests whose answer carried no ConsumedCapacity (then the units below leave them out). */
  unmeasured: string[];
  read: number;
  /**
   * Read units of GetItem and BatchGetItem computed as DynamoDB charges them: each key its item's size in 4 KB steps,
   * and one step for a key with no item (Local charges nothing for those); half for an eventually consistent read.
   */
  computedRead: number;
  /** Write units as DynamoDB Local reports them. */
  write: number;
  /** Write units computed from item sizes, by where they land: `table`, `gsi1` … */
  computedBy: Map<string, number>;
  /** The size of each item written, after the write (bytes, as DynamoDB counts them; 0 for a deleted item). */
  itemBytes: number[];
};

export const noUnits = (): Units => ({ requests: 0, writeRequests: 0, unmeasured: [], read: 0, computedRead: 0, write: 0, computedBy: new Map(), itemBytes: [] });
export const computed = (units: Units) => [...units.computedBy.values()].reduce((sum, n) => sum + n, 0);

const WRITES = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'TransactWriteItemsCommand', 'BatchWriteItemCommand']);

/**
 * Adds one answer's ConsumedCapacity (an object, or a list for batch and transaction requests). Local reports
 * a single request's units as `CapacityUnits` alone, so the command tells reads from writes.
 */
function addCapacity(units: Units, command: string, consumed: ConsumedCapacity | ConsumedCapacity[] | undefined) {
  const entries = consumed === undefined ? [] : Array.isArray(consumed) ? consumed : [consumed];
  if (entries.length === 0) units.unmeasured.push(command);
  for (const entry of entries) {
    if (WRITES.has(command)) units.write += entry.WriteCapacityUnits ?? entry.CapacityUnits ?? 0;
    else units.read += entry.ReadCapacityUnits ?? entry.CapacityUnits ?? 0;
  }
}

type Key = Record<string, AttributeValue>;

/** Read units of a (marshalled) GetItem or BatchGetItem and its answer: see `Units.computedRead`. */
function keyReadUnits(command: string, input: Record<string, any>, output: Record<string, any>): number {
  const units = (items: Image[], keys: number, consistent: boolean) =>
    (items.reduce((sum, item) => sum + Math.max(1, Math.ceil(itemSize(item) / 4096)), 0) + Math.max(0, keys - items.length)) * (consistent ? 1 : 0.5);
  if (command === 'GetItemCommand') return units(output.Item ? [output.Item] : [], 1, input.ConsistentRead === true);
  if (command !== 'BatchGetItemCommand') return 0;
  return Object.entries(input.RequestItems as Record<string, { Keys: Key[]; ConsistentRead?: boolean }>).reduce((sum, [table, request]) => {
    const unprocessed = (output.UnprocessedKeys?.[table]?.Keys as Key[] | undefined)?.length ?? 0;
    return sum + units(output.Responses?.[table] ?? [], request.Keys.length - unprocessed, request.ConsistentRead === true);
  }, 0);
}
const keyOf = (item: Key | undefined): Key | undefined => item && { pk: item.pk!, sk: item.sk! };

/** The keys of the items a (marshalled) write request writes or checks. */
function writtenKeys(command: string, input: Record<string, any>): Key[] {
  const fromTransactItem = (t: TransactWriteItem) => keyOf(t.Put?.Item) ?? t.Update?.Key ?? t.Delete?.Key ?? t.ConditionCheck?.Key;
  const keys =
    command === 'PutItemCommand'
      ? [keyOf(input.Item)]
      : command === 'TransactWriteItemsCommand'
        ? (input.TransactItems as TransactWriteItem[]).map(fromTransactItem)
        : command === 'BatchWriteItemCommand'
          ? Object.values(input.RequestItems as Record<string, any[]>).flat().map((w) => keyOf(w.PutRequest?.Item) ?? w.DeleteRequest?.Key)
          : [input.Key];
  return keys.filter((key): key is Key => key !== undefined);
}

/**
 * Meters every request a handler's own table clients (`Clients`: its direct requests and ElectroDB's) send from now
 * on. `measure(call)` runs one operation and returns what its requests cost; operations must run one at a time.
 * `stop()` closes the inspecting client.
 */
export function meterCapacity(clients: Clients, options: { endpoint: string; tableName: string }) {
  // Reads the items around each write, unseen by the handler's client and its counts.
  const inspector = new DynamoDBClient({ endpoint: options.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const imageOf = async (Key: Key): Promise<Image> =>
    (await inspector.send(new GetItemCommand({ TableName: options.tableName, Key, ConsistentRead: true }))).Item;
  let current = noUnits();
  const meter = (middleware: Clients['table']['middlewareStack']) => {
    middleware.add(
      (next) => async (args) => {
        (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity = 'INDEXES';
        return next(args);
      },
      { step: 'initialize', name: 'returnConsumedCapacity' },
    );
    // At the build step every input is marshalled (`{S: …}`), whichever client sent it.
    middleware.add(
      (next, context) => async (args) => {
        const command = context.commandName ?? '?';
        const input = args.input as Record<string, any>;
        const keys = WRITES.has(command) ? writtenKeys(command, input) : [];
        const before = await Promise.all(keys.map(imageOf));
        const result = await next(args);
        const after = await Promise.all(keys.map(imageOf));
        current.requests++;
        if (WRITES.has(command)) current.writeRequests++;
        addCapacity(current, command, (result.output as { ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[] }).ConsumedCapacity);
        current.computedRead += keyReadUnits(command, input, result.output as Record<string, any>);
        current.itemBytes.push(...after.map(itemSize));
        keys.forEach((_, i) => {
          for (const [at, n] of writeUnits(before[i], after[i], command === 'TransactWriteItemsCommand')) {
            current.computedBy.set(at, (current.computedBy.get(at) ?? 0) + n);
          }
        });
        return result;
      },
      { step: 'build', priority: 'low', name: 'capacityAccounting' },
    );
  };
  meter(clients.table.middlewareStack);
  meter(clients.documents.middlewareStack);
  return {
    async measure<T extends object>(call: () => Promise<T>): Promise<Units & T> {
      current = noUnits();
      const outcome = await call();
      return { ...current, ...outcome };
    },
    stop: () => inspector.destroy(),
  };
}
