import { randomUUID } from 'node:crypto';
import { writeItem } from '../data/writes.js';
import type { Deps } from '../runtime.js';

/**
 * The records behind `Idempotency-Key` (shared/platform/http/idempotency.ts): a request claims its key with one conditional
 * put, records its answer on the condition that the claim is still its own, and a retry finds that answer. Items of
 * the one table (`idempotencyRecord`, docs/data-model.md), written through shared/platform/data/writes.ts like every other.
 */

type RecordDeps = Pick<Deps, 'data' | 'clock'>;

/** Keys and their answers are kept this long (the table's TTL removes them; an expired one is free again at once). */
export const IDEMPOTENCY_RETENTION_SECONDS = 24 * 3600;
/** A claim outlives any invocation (functions time out after 10 s): while it holds, its holder alone may answer. */
export const IDEMPOTENCY_LEASE_MS = 60_000;

/** An HTTP answer as recorded and replayed: no cookies, ever. */
export type StoredAnswer = { statusCode: number; headers: Record<string, string>; body?: string; isBase64Encoded?: boolean };

export type IdempotencyClaim = { keyHash: string; token: string };

export type ClaimOutcome =
  | { kind: 'claimed'; claim: IdempotencyClaim }
  | { kind: 'completed'; answer: StoredAnswer }
  | { kind: 'mismatch' }
  | { kind: 'inProgress' }
  /** Claimed by nobody any more (released, expired or its lease ran out) between our put and our read: claim again. */
  | { kind: 'free' };

type RecordItem = { requestHash: string; state: 'inProgress' | 'completed'; leaseUntil: number; response?: string; ttl: number };

const seconds = (ms: number) => Math.floor(ms / 1000);

/** What a record read (strongly consistent) says to a request with `requestHash`. */
function outcomeOf(record: RecordItem | null | undefined, requestHash: string, nowMs: number): Exclude<ClaimOutcome, { kind: 'claimed' }> {
  if (!record || record.ttl < seconds(nowMs)) return { kind: 'free' };
  if (record.requestHash !== requestHash) return { kind: 'mismatch' };
  if (record.state === 'completed' && record.response) return { kind: 'completed', answer: JSON.parse(record.response) as StoredAnswer };
  return record.leaseUntil < nowMs ? { kind: 'free' } : { kind: 'inProgress' };
}

/**
 * Claims a key for this request by one conditional put: the key is new, its record expired (the TTL removes items
 * late), or its claim's lease ran out (the invocation that held it crashed). Otherwise the record tells: its
 * answer (the same request), a mismatch (another request under the same key), or a request still in progress.
 */
export async function claimKey(deps: RecordDeps, keyHash: string, requestHash: string): Promise<ClaimOutcome> {
  const now = deps.clock.now().getTime();
  const claim = { keyHash, token: randomUUID() };
  const { idempotencyRecord } = deps.data.entities;
  const claimed = await writeItem(() =>
    idempotencyRecord
      .put({
        idempotencyKeyHash: keyHash,
        requestHash,
        state: 'inProgress',
        claimToken: claim.token,
        leaseUntil: now + IDEMPOTENCY_LEASE_MS,
        createdAt: new Date(now).toISOString(),
        ttl: seconds(now) + IDEMPOTENCY_RETENTION_SECONDS,
      })
      .where(
        ({ state, ttl, leaseUntil }, { notExists, eq, lt }) =>
          `${notExists(state)} OR ${lt(ttl, seconds(now))} OR (${eq(state, 'inProgress')} AND ${lt(leaseUntil, now)})`,
      )
      .go({ response: 'none' }),
  );
  if (claimed.written) return { kind: 'claimed', claim };
  return readKey(deps, keyHash, requestHash);
}

/** The record of a key as a request with `requestHash` sees it: one strongly consistent read. */
export async function readKey(deps: RecordDeps, keyHash: string, requestHash: string): Promise<Exclude<ClaimOutcome, { kind: 'claimed' }>> {
  const { data } = await deps.data.entities.idempotencyRecord.get({ idempotencyKeyHash: keyHash }).go({ consistent: true });
  return outcomeOf(data, requestHash, deps.clock.now().getTime());
}

/** Records the claim's answer; false when the claim is no longer this request's (its lease ran out and was taken over). */
export async function completeClaim(deps: RecordDeps, claim: IdempotencyClaim, answer: StoredAnswer): Promise<boolean> {
  const written = await writeItem(() =>
    deps.data.entities.idempotencyRecord
      .patch({ idempotencyKeyHash: claim.keyHash })
      .set({ state: 'completed', response: JSON.stringify(answer) })
      .where(({ claimToken, state }, { eq }) => `${eq(claimToken, claim.token)} AND ${eq(state, 'inProgress')}`)
      .go({ response: 'none' }),
  );
  return written.written;
}

/** Lets go of a claim whose request did not come to a final answer, so that a retry can act at once. */
export async function releaseClaim(deps: RecordDeps, claim: IdempotencyClaim): Promise<void> {
  await writeItem(() =>
    deps.data.entities.idempotencyRecord
      .delete({ idempotencyKeyHash: claim.keyHash })
      .where(({ claimToken, state }, { eq }) => `${eq(claimToken, claim.token)} AND ${eq(state, 'inProgress')}`)
      .go({ response: 'none' }),
  );
}
