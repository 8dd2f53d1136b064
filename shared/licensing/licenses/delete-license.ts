import type { ActivationItem } from '../activations/activation-view.js';
import { counterNames, counterUpdates, transact, type TransactionEntities, writeItem } from '../../platform/data/index.js';
import { ConflictError, NotFoundError } from '../../platform/index.js';
import { expiryItemChanges } from './expiry-items.js';
import { activationsOf, activationsRead, FIRST_CHUNK, LATER_CHUNK } from './license-activations.js';
import type { LicenseItem } from './license-view.js';
import { stagingCountIs } from './license-counters.js';
import { loadLicense, type LicenseDeps } from './load-license.js';

/** Consecutive refused transactions (activations changing meanwhile) before answering 409. */
const MAX_FAILURES = 5;

/** Items that remove one activation (only in the state it was read in) and, if active, its domain hold. */
function removalItems(tx: TransactionEntities, activation: ActivationItem) {
  const { activationId, licenseId, domain, status } = activation;
  return [
    tx.activation.delete({ activationId }).where(({ status: now }, { eq }) => eq(now, status)).commit(),
    ...(status === 'active'
      ? [tx.activeDomain.delete({ licenseId, domain }).where(({ activationId: holder }, { eq }) => eq(holder, activationId)).commit()]
      : []),
  ];
}

/** Counter items for removing these activations: the total and each status's count go down. */
function activationCounterItems(tx: TransactionEntities, tenantId: string, removed: ActivationItem[]) {
  const active = removed.filter((a) => a.status === 'active').length;
  const byName = new Map<string, number>();
  for (const [status, count] of [['active', active], ['deactivated', removed.length - active]] as const) {
    if (count === 0) continue;
    for (const name of counterNames.activations(status)) byName.set(name, (byName.get(name) ?? 0) - count);
  }
  return [...byName].flatMap(([name, delta]) => counterUpdates(tx.counter, tenantId, [name], delta));
}

/**
 * Deletes a license with its activations: its key stops working and it leaves every list and
 * counter. The license, its counters and the first activations go in one transaction that also marks
 * its ref deleted, conditioned on the activation count it read, so no activation is created unseen;
 * activations beyond one transaction's room follow in further transactions, and the ref goes last. A
 * call cut short between them (a timeout) leaves the marked ref: the next delete of the id finishes.
 */
export async function deleteLicense(deps: LicenseDeps, tenantId: string, licenseId: string): Promise<void> {
  for (let round = 0; round < MAX_FAILURES; round++) {
    const current = await loadLicense(deps, tenantId, licenseId).catch(async (error: unknown) => {
      if (error instanceof NotFoundError && (await deletionStarted(deps, tenantId, licenseId))) return undefined;
      throw error;
    });
    if (!current) return finishDeletion(deps, { licenseId, tenantId });
    const activations = await activationsRead(deps, current);
    const first = activations.slice(0, FIRST_CHUNK);
    const outcome = await transact(deps.data, (tx) => ({
      license: tx.license
        .delete({ licenseKey: current.licenseKey })
        .where(({ licenseId: id, activatedCount, stagingCount, status }, { eq, notExists }) =>
          [
            eq(id, licenseId),
            eq(activatedCount, current.activatedCount),
            stagingCountIs(stagingCount, { eq, notExists }, current.stagingCount),
            eq(status, current.status),
          ].join(' AND '),
        )
        .commit(),
      ref: tx.licenseRef.patch({ licenseId }).set({ deletedAt: deps.clock.now().toISOString() }).commit(),
      counters: counterUpdates(tx.counter, tenantId, counterNames.licenses(current.productId, current.status), -1),
      expiry: expiryItemChanges(tx, current, current, undefined),
      activationCounters: activationCounterItems(tx, tenantId, first),
      activations: first.flatMap((activation) => removalItems(tx, activation)),
    }));
    if (outcome.committed) return finishDeletion(deps, current);
    // The license or one of its activations changed since they were read: read them again.
  }
  throw new ConflictError('License was changed concurrently; retry');
}

type DeletedLicense = Pick<LicenseItem, 'licenseId' | 'tenantId'>;

/** Whether the tenant's license was deleted by a call that did not finish: its ref is still there, marked. */
async function deletionStarted(deps: LicenseDeps, tenantId: string, licenseId: string): Promise<boolean> {
  const { data: ref } = await deps.data.entities.licenseRef.get({ licenseId }).go({ consistent: true });
  return ref?.tenantId === tenantId && ref.deletedAt !== undefined;
}

/** The rest of a deletion once the license item is gone: its remaining activations, then its ref. */
async function finishDeletion(deps: LicenseDeps, license: DeletedLicense): Promise<void> {
  await removeRemainingActivations(deps, license);
  await writeItem(() =>
    deps.data.entities.licenseRef
      .delete({ licenseId: license.licenseId })
      .where(({ deletedAt }, { exists }) => exists(deletedAt))
      .go(),
  );
}

/** After the license is gone no activation can be added; what remains is removed chunk by chunk. */
async function removeRemainingActivations(deps: LicenseDeps, license: DeletedLicense): Promise<void> {
  for (let failures = 0; failures < MAX_FAILURES; ) {
    const chunk = (await activationsOf(deps, license.licenseId)).slice(0, LATER_CHUNK);
    if (chunk.length === 0) return;
    const outcome = await transact(deps.data, (tx) => ({
      activationCounters: activationCounterItems(tx, license.tenantId, chunk),
      activations: chunk.flatMap((a) => removalItems(tx, a)),
    }));
    failures = outcome.committed ? 0 : failures + 1;
  }
  throw new ConflictError('License was deleted, but some of its activations were changed concurrently; retry');
}
