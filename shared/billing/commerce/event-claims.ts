import { randomUUID } from 'node:crypto';
import { type TransactionEntities, writeItem } from '../../platform/data/index.js';
import type { Deps } from '../../platform/index.js';

type ClaimDeps = Pick<Deps, 'data' | 'clock'>;

/** A claim outlives the function's timeout (10 s): while it holds, only its holder may apply the event. */
export const CLAIM_LEASE_SECONDS = 60;
/** Seen event ids are kept longer than Stripe retries one (3 days). */
const SEEN_RETENTION_SECONDS = 30 * 24 * 3600;

/** One delivery's hold on an event id: the token is the delivery's own, so a claim taken over is told apart. */
export type EventClaim = { tenantId: string; stripeEventId: string; token: string };
export type ClaimOutcome = { kind: 'claimed'; claim: EventClaim } | { kind: 'processed' } | { kind: 'busy' };

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * Claims a Stripe event id for this delivery, by one conditional put: the id is new, or its claim's lease ran
 * out (the invocation that held it crashed), so a retry is never blocked for good. Otherwise the event is
 * already processed (a replay: 2xx) or being processed by another delivery (409, and Stripe retries).
 */
export async function claimEvent(deps: ClaimDeps, tenantId: string, event: { id: string; type: string }): Promise<ClaimOutcome> {
  const now = deps.clock.now();
  const claim = { tenantId, stripeEventId: event.id, token: randomUUID() };
  const claimed = await writeItem(() =>
    deps.data.entities.stripeEvent
      .put({
        tenantId,
        stripeEventId: event.id,
        type: event.type,
        state: 'processing',
        claimToken: claim.token,
        leaseUntil: seconds(now) + CLAIM_LEASE_SECONDS,
        updatedAt: now.toISOString(),
        ttl: seconds(now) + SEEN_RETENTION_SECONDS,
      })
      .where(({ state, leaseUntil }, { notExists, eq, lt }) => `${notExists(state)} OR (${eq(state, 'processing')} AND ${lt(leaseUntil, seconds(now))})`)
      .go(),
  );
  if (claimed.written) return { kind: 'claimed', claim };
  const { data: seen } = await deps.data.entities.stripeEvent.get({ tenantId, stripeEventId: event.id }).go({ consistent: true });
  return seen?.state === 'processed' ? { kind: 'processed' } : { kind: 'busy' };
}

/**
 * The transaction item that marks the event processed, on the condition that the claim is still this
 * delivery's: put it in the transaction that applies the event, and a duplicate can never commit twice.
 */
export function processedMark(tx: Pick<TransactionEntities, 'stripeEvent'>, claim: EventClaim, now: Date) {
  return tx.stripeEvent
    .patch({ tenantId: claim.tenantId, stripeEventId: claim.stripeEventId })
    .set({ state: 'processed', updatedAt: now.toISOString() })
    .where(({ claimToken, state }, { eq }) => `${eq(claimToken, claim.token)} AND ${eq(state, 'processing')}`)
    .commit();
}

/** Marks an event that changes nothing (ignored) processed; false when the claim was taken over meanwhile. */
export async function markProcessed(deps: ClaimDeps, claim: EventClaim): Promise<boolean> {
  const now = deps.clock.now();
  const outcome = await writeItem(() =>
    deps.data.entities.stripeEvent
      .patch({ tenantId: claim.tenantId, stripeEventId: claim.stripeEventId })
      .set({ state: 'processed', updatedAt: now.toISOString() })
      .where(({ claimToken, state }, { eq }) => `${eq(claimToken, claim.token)} AND ${eq(state, 'processing')}`)
      .go(),
  );
  return outcome.written;
}

/** Lets go of a claim whose processing failed, so that Stripe's retry need not wait for the lease. */
export async function releaseClaim(deps: ClaimDeps, claim: EventClaim): Promise<void> {
  await writeItem(() =>
    deps.data.entities.stripeEvent
      .delete({ tenantId: claim.tenantId, stripeEventId: claim.stripeEventId })
      .where(({ claimToken, state }, { eq }) => `${eq(claimToken, claim.token)} AND ${eq(state, 'processing')}`)
      .go(),
  );
}
