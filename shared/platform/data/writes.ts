import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { errorChain, ServiceUnavailableError } from '../errors.js';
import type { DataService, TransactionEntities } from './service.js';
import { entityOf, type TransactItem } from './transact-item.js';
import { type TransactionCompanion, transactionCompanion } from './transaction-companion.js';

/**
 * Every write to the table goes through `transact` (transactions) or `writeItem` (single items), so that
 * each one tells the three ways DynamoDB can refuse a write apart:
 * - a condition did not hold: a domain answer, reported by name for the caller to turn into 404, 409, …;
 * - another transaction held an item (`TransactionConflict`) or the table was throttled: retried with
 *   jittered backoff, then 503, never mistaken for a domain answer;
 * - anything else (a malformed request): thrown, never taken for success.
 * DynamoDB Local never produces the second kind; test/unit/*-writes.test.ts inject it.
 */

/** Attempts of one request (a write, or a batch read's unprocessed keys) before answering 503. */
export const MAX_STORAGE_ATTEMPTS = 6;

/** Full jitter over an exponential ceiling (10, 20, 40 … ms): racing writers spread out instead of colliding again. */
export const jitteredBackoffMs = (attempt: number) => Math.random() * 10 * 2 ** attempt;

/** Cancellation reasons that mean "try again", not "your condition failed". */
const RETRYABLE_REASONS = new Set(['TransactionConflict', 'ThrottlingError', 'ProvisionedThroughputExceeded', 'RequestLimitExceeded']);

type TransactionItem = ReturnType<Parameters<DataService['transaction']['write']>[0]>[number];

/**
 * A transaction's options. `originalErr` (a failure thrown as the SDK's own error) is honoured by ElectroDB's
 * transactions as by its other operations, but missing from their type: without it, ElectroDB captures a stack
 * trace for a wrapper error on every call, failed or not, a tenth of a transaction's CPU here.
 */
type TransactionOptions = Parameters<ReturnType<DataService['transaction']['write']>['go']>[0] & { originalErr?: boolean };

/** One named part of a transaction: an item, several (counters), or nothing (`false`/`undefined`). */
export type Slot = TransactionItem | readonly TransactionItem[] | false | undefined;

export type TransactionResult<N extends string> =
  | { committed: true }
  | {
      committed: false;
      /** True when a condition of an item in this slot failed. At least one slot is refused. */
      refused(slot: N): boolean;
      /** The item as it was when its condition failed, for slots written with `commit({ response: 'all_old' })`. */
      oldItem<T>(slot: N): T | undefined;
      /** The error for a refusal the caller did not expect: a bug, reported with the slots' names. */
      unexpected(): Error;
    };

type Layout<N extends string> = { name: N; from: number; to: number }[];

function flatten<N extends string>(slots: Record<N, Slot>, layout: Layout<N>): TransactionItem[] {
  const items: TransactionItem[] = [];
  layout.length = 0;
  for (const [name, slot] of Object.entries(slots) as [N, Slot][]) {
    if (!slot) continue;
    const from = items.length;
    items.push(...(Array.isArray(slot) ? slot : [slot as TransactionItem]));
    layout.push({ name, from, to: items.length });
  }
  return items;
}

/** A write transaction built (its items' requests made) and not yet sent: `send` runs it, as often as asked. */
export type PreparedTransaction<N extends string> = { send(): Promise<TransactionResult<N>> };

/**
 * Runs a write transaction whose items are grouped in named slots. Each attempt carries a fresh
 * `ClientRequestToken`, so an SDK retry of an attempt whose answer was lost (a timeout) cannot apply it twice.
 * Inside a request that changes something, the first transaction that makes the declared change also carries its audit
 * entry (shared/platform/data/transaction-companion.ts): the change and its entry commit together or not at all.
 */
export function transact<N extends string>(data: DataService, build: (tx: TransactionEntities) => Record<N, Slot>): Promise<TransactionResult<N>> {
  return prepareTransaction(data, build).send();
}

/**
 * The same in two steps: the items are built now, and sent when `send` is called (a caller building its next
 * transaction while the one before is in flight). The audit companion is the one of the request preparing it.
 */
export function prepareTransaction<N extends string>(data: DataService, build: (tx: TransactionEntities) => Record<N, Slot>): PreparedTransaction<N> {
  const companion = transactionCompanion();
  const layout: Layout<N> = [];
  let items: TransactionItem[] = [];
  const built = data.transaction.write((tx) => (items = flatten(build(tx), layout)));
  return { send: () => sendTransaction(data, { built, items, layout, companion }) };
}

async function sendTransaction<N extends string>(
  data: DataService,
  { built, items, layout, companion }: { built: ReturnType<DataService['transaction']['write']>; items: TransactionItem[]; layout: Layout<N>; companion: TransactionCompanion | undefined },
): Promise<TransactionResult<N>> {
  for (let attempt = 0; attempt < MAX_STORAGE_ATTEMPTS; attempt++) {
    let write = built;
    const addition = companion && (await companion.addition(data, items as unknown as TransactItem[]));
    if (addition) {
      write = data.transaction.write((tx) => {
        // Named, so ElectroDB can read back the old items of the change's own slots.
        for (const item of items) void (tx as Record<string, unknown>)[entityOf(item as unknown as TransactItem) ?? ''];
        return [...items, ...(addition(tx) as TransactionItem[])];
      });
    }
    const outcome = await unlessThrottled(() => write.go({ token: randomUUID(), originalErr: true } as TransactionOptions));
    if (!outcome.canceled) {
      if (addition) companion.committed();
      return { committed: true };
    }

    const reasons = outcome.data as ReadonlyArray<{ code?: string; item?: unknown }>;
    const codes = reasons.map((reason) => reason.code ?? 'None');
    const slotOf = (index: number) => layout.find((slot) => index >= slot.from && index < slot.to)?.name;
    const refused = new Set(codes.flatMap((code, index) => (code === 'ConditionalCheckFailed' && index < items.length ? [slotOf(index)!] : [])));
    if (refused.size > 0) {
      return {
        committed: false,
        refused: (slot) => refused.has(slot),
        oldItem: <T>(slot: N) => {
          const entry = layout.find((s) => s.name === slot);
          return (entry && (reasons[entry.from]?.item as T | null)) ?? undefined;
        },
        unexpected: () => new Error(`transaction refused by slot ${[...refused].join(', ')}`),
      };
    }
    if (!codes.some((code) => RETRYABLE_REASONS.has(code))) throw new TransactionRejectedError(codes);
    if (attempt + 1 < MAX_STORAGE_ATTEMPTS) await sleep(jitteredBackoffMs(attempt));
  }
  throw new ServiceUnavailableError();
}

/** A transaction refused for a reason that is neither a condition nor contention (e.g. a malformed item). */
export class TransactionRejectedError extends Error {
  constructor(readonly codes: string[]) {
    super(`transaction rejected: ${codes.join(', ')}`);
    // A ValidationError reason is DynamoDB's ValidationException, item by item: mapped as that is.
    this.name = codes.includes('ValidationError') ? 'ValidationException' : 'TransactionRejectedError';
  }
}

const hasErrorNamed = (error: unknown, names: ReadonlySet<string>) => errorChain(error).some((e) => names.has(e.name ?? ''));

const CONDITION_FAILED = new Set(['ConditionalCheckFailedException']);
/** A single write that met an item held by a transaction: the SDK does not retry it, this does. */
const ITEM_BUSY = new Set(['TransactionConflictException']);
/** Throttling the SDK has already retried with its own backoff: the caller may try again later. */
const THROTTLED = new Set(['ProvisionedThroughputExceededException', 'ThrottlingException', 'RequestLimitExceeded']);

/** Runs a request, answering 503 when the table stayed throttled through the SDK's retries. */
async function unlessThrottled<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    if (hasErrorNamed(error, THROTTLED)) throw new ServiceUnavailableError();
    throw error;
  }
}

export type ItemWriteResult<T> = { written: true; value: T } | { written: false };

/**
 * Runs one single-item write (put, update, patch, delete, remove). `written: false` means its condition
 * did not hold (ElectroDB's `create`, `patch` and `remove` carry one of their own). Throttling is
 * retried by the SDK itself, then 503; a conflict with a transaction is retried here with jittered
 * backoff, then 503.
 */
export async function writeItem<T>(write: () => Promise<T>): Promise<ItemWriteResult<T>> {
  for (let attempt = 0; attempt < MAX_STORAGE_ATTEMPTS; attempt++) {
    try {
      return { written: true, value: await unlessThrottled(write) };
    } catch (error) {
      if (hasErrorNamed(error, CONDITION_FAILED)) return { written: false };
      if (!hasErrorNamed(error, ITEM_BUSY)) throw error;
    }
    if (attempt + 1 < MAX_STORAGE_ATTEMPTS) await sleep(jitteredBackoffMs(attempt));
  }
  throw new ServiceUnavailableError();
}

/**
 * Sends a batch request (BatchWriteItem, BatchGetItem) again for what DynamoDB left unprocessed under load, with
 * jittered pauses between tries; answers what is still unprocessed after MAX_STORAGE_ATTEMPTS (none, usually).
 */
export async function untilProcessed<K>(items: K[], send: (items: K[]) => Promise<{ unprocessed: K[] }>): Promise<K[]> {
  let pending = items;
  for (let attempt = 0; attempt < MAX_STORAGE_ATTEMPTS && pending.length > 0; attempt++) {
    if (attempt > 0) await sleep(jitteredBackoffMs(attempt));
    pending = (await unlessThrottled(() => send(pending))).unprocessed;
  }
  return pending;
}

/** Every item of `keys` by batch reads, asking again for keys left unprocessed; 503 when some stay so. */
export async function readAll<K, T>(keys: K[], get: (keys: K[]) => Promise<{ data: T[]; unprocessed: K[] }>): Promise<T[]> {
  const items: T[] = [];
  const left = await untilProcessed(keys, async (batch) => {
    const { data, unprocessed } = await get(batch);
    items.push(...data);
    return { unprocessed };
  });
  if (left.length > 0) throw new ServiceUnavailableError();
  return items;
}

/** Deletes items in batches, 503 when some stay unprocessed, rather than reporting a partial delete as done. */
export async function deleteItems<K>(keys: K[], remove: (keys: K[]) => Promise<{ unprocessed: K[] }>): Promise<void> {
  if ((await untilProcessed(keys, remove)).length > 0) throw new ServiceUnavailableError();
}
