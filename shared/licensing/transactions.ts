import { ServiceUnavailableError } from '../errors.js';

/** A cancelled ElectroDB write transaction: one reason per item, `item` when ALL_OLD was asked for. */
export type TransactionOutcome = {
  canceled: boolean;
  data: ReadonlyArray<{ code?: string; item?: unknown }>;
};

const MAX_ATTEMPTS = 6;
/** Reasons that say "try again later", not "your condition failed". */
const CAPACITY_CODES = new Set(['ThrottlingError', 'ProvisionedThroughputExceeded', 'RequestLimitExceeded']);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Full jitter over an exponential ceiling (10, 20, 40 … ms): racing writers spread out instead of colliding again. */
export const conflictBackoffMs = (attempt: number) => Math.random() * 10 * 2 ** attempt;

/**
 * Runs a write transaction until it commits or is refused by a condition. A conflict with another
 * transaction on the same items (DynamoDB's `TransactionConflict`) is retried with jittered backoff;
 * throttling, or conflicts that outlast the retries, are 503: the caller may retry, and the answer is
 * never mistaken for a domain result.
 */
export async function commitWithRetry<O extends TransactionOutcome>(write: () => Promise<O>, backoff = conflictBackoffMs): Promise<O> {
  for (let attempt = 0; ; attempt++) {
    const outcome = await write();
    if (!outcome.canceled) return outcome;
    const codes = outcome.data.map((reason) => reason.code ?? 'None');
    if (codes.some((code) => CAPACITY_CODES.has(code))) throw new ServiceUnavailableError();
    if (!codes.includes('TransactionConflict')) return outcome;
    if (attempt + 1 >= MAX_ATTEMPTS) throw new ServiceUnavailableError();
    await sleep(backoff(attempt));
  }
}

/** True when the item at `index` was refused by its condition. */
export function conditionFailed(outcome: TransactionOutcome, index: number): boolean {
  return outcome.canceled && outcome.data[index]?.code === 'ConditionalCheckFailed';
}
