import { type EntityItem, transact, type TransactionEntities } from '../../platform/data/index.js';
import type { Deps } from '../../platform/index.js';
import { readable } from './readable.js';

type Job = EntityItem<'importJob'>;

/** DECISIONS §20: an import that makes no progress for this long ends `failed`, with its reason. */
export const STALL_MS = 15 * 60 * 1000;

/** The longest a message of the import queue may stay hidden: a crashed run goes on before its import counts as stalled. */
export const MAX_RETRY_DELAY_MS = STALL_MS - 3 * 60 * 1000;

const isOpen = (job: Job) => job.status === 'queued' || job.status === 'running';

/** True when `job` is queued or running and has not moved for `STALL_MS` (`updatedAt` moves with every step forward). */
export const hasStalled = (job: Job, now: Date) => isOpen(job) && now.getTime() - Date.parse(job.updatedAt) >= STALL_MS;

/** Frees the tenant's import slot if `job` holds it (or none does: imports queued before slots existed). */
export const slotRelease = (tx: Pick<TransactionEntities, 'importSlot'>, job: Pick<Job, 'tenantId' | 'importId'>) =>
  tx.importSlot
    .delete({ tenantId: job.tenantId })
    .where(({ importId }, { eq, notExists }) => `${notExists(importId)} OR ${eq(importId, job.importId)}`)
    .commit();

/**
 * Ends an open import `failed` with `failure`, freeing its slot, in one transaction; `unmovedSince`: only if it has not
 * moved since (a stall). False when it had ended or moved meanwhile.
 */
export async function failImport(deps: Pick<Deps, 'data' | 'clock'>, job: Job, failure: string, unmovedSince?: string): Promise<boolean> {
  const now = deps.clock.now().toISOString();
  const outcome = await transact(deps.data, (tx) => ({
    job: tx.importJob
      .patch({ importId: job.importId })
      .set({ status: 'failed', failure: readable(failure), finishedAt: now, updatedAt: now })
      .where(({ status, updatedAt }, { eq }) => {
        const open = `(${eq(status, 'queued')} OR ${eq(status, 'running')})`;
        return unmovedSince === undefined ? open : `${open} AND ${eq(updatedAt, unmovedSince)}`;
      })
      .commit(),
    slot: slotRelease(tx, job),
  }));
  return outcome.committed;
}

/** Why a stalled import ended: the 15 minutes, and what stopped its worker when it knows. */
export const stallFailure = (job: Job) => `The import made no progress for 15 minutes${job.lastError ? `: ${job.lastError}` : ''}`;

/** `job` as it stands once a stall has ended it (DECISIONS §20); unchanged when it has not stalled. */
export async function endIfStalled(deps: Pick<Deps, 'data' | 'clock'>, job: Job): Promise<Job> {
  if (!hasStalled(job, deps.clock.now())) return job;
  await failImport(deps, job, stallFailure(job), job.updatedAt);
  const { data } = await deps.data.entities.importJob.get({ importId: job.importId }).go({ consistent: true });
  return data ?? job;
}

/**
 * Frees the tenant's import slot when its import has ended (or is gone) or has stalled (ending it); true when the
 * slot is free now, false while its import is queued or running.
 */
export async function freeStaleSlot(deps: Pick<Deps, 'data' | 'clock'>, tenantId: string): Promise<boolean> {
  const { data: slot } = await deps.data.entities.importSlot.get({ tenantId }).go({ consistent: true });
  if (!slot) return true;
  const { data: job } = await deps.data.entities.importJob.get({ importId: slot.importId }).go({ consistent: true });
  if (job && isOpen(job)) return !isOpen(await endIfStalled(deps, job));
  await transact(deps.data, (tx) => ({ slot: slotRelease(tx, slot) }));
  return true;
}

/** Longest reason kept from a failed run. */
const MAX_ERROR_LENGTH = 300;

/** Records why the worker's run of an open import failed (without moving `updatedAt`): its reason if it stalls. */
export async function recordRunError(deps: Pick<Deps, 'data'>, importId: string, error: unknown): Promise<void> {
  const message = error instanceof Error ? error.message : String(error);
  await deps.data.entities.importJob
    .patch({ importId })
    .set({ lastError: `its worker failed (${message.slice(0, MAX_ERROR_LENGTH)})` })
    .where(({ status }, { eq }) => `${eq(status, 'queued')} OR ${eq(status, 'running')}`)
    .go()
    .catch(() => undefined); // ended meanwhile, or the table is out of reach: the stall's reason is then the 15 minutes alone
}
