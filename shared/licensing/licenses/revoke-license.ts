import type { ActivationItem } from '../activations/activation-view.js';
import { holdOf, readDomainHolds, type DomainHold } from '../activations/last-check.js';
import { transact } from '../../platform/data/index.js';
import { ConflictError } from '../../platform/index.js';
import { outboxEvent } from '../../messaging/index.js';
import { expiryItemChanges } from './expiry-items.js';
import { indexFields } from './index-fields.js';
import { activationsRead, deactivationItems, FIRST_CHUNK, LATER_CHUNK } from './license-activations.js';
import { activationsDeactivated, licenseStatusMoves, stagingCountIs } from './license-counters.js';
import { toLicense, type License, type LicenseItem, type ProductSummary } from './license-view.js';
import { loadLicense, productSummary, type LicenseDeps } from './load-license.js';

/** Consecutive cancelled transactions (concurrent activations, deactivations or edits) before giving up. */
const MAX_FAILURES = 5;

/**
 * Sets `revoked` and deactivates every active activation. The status change, the event and the first
 * activations commit together; a license with more active activations than fit in one transaction
 * has the rest deactivated in further transactions of the same call, each moving `activatedCount` (and
 * `stagingCount`, for staging sites) and the activation counters by exactly what it deactivates. Revoking a revoked license finishes any
 * activations left active and emits no second event. Each step copies the last checks of the activations it
 * ends from their domain items (one batch read).
 */
export async function revokeLicense(deps: LicenseDeps, tenantId: string, licenseId: string): Promise<License> {
  let product: ProductSummary | undefined;
  for (let failures = 0; failures < MAX_FAILURES; ) {
    const current = await loadLicense(deps, tenantId, licenseId);
    product ??= await productSummary(deps, current.productId);
    const active = (await activationsRead(deps, current)).filter((a) => a.status === 'active');
    const transition = current.status !== 'revoked';
    if (!transition && active.length === 0) return toLicense(current, product, deps.clock.now());
    const chunk = active.slice(0, transition ? FIRST_CHUNK : LATER_CHUNK);
    const holds = chunk.length > 0 ? await readDomainHolds(deps, chunk, { consistent: true }) : new Map<string, DomainHold>();
    const outcome = await revokeStep(deps, current, product, chunk, holds, transition);
    failures = outcome.committed ? 0 : failures + 1;
  }
  throw new ConflictError('License was changed concurrently; retry');
}

function revokeStep(
  deps: LicenseDeps,
  current: LicenseItem,
  product: ProductSummary,
  chunk: ActivationItem[],
  holds: Map<string, DomainHold>,
  transition: boolean,
) {
  const now = deps.clock.now();
  const at = now.toISOString();
  const { licenseKey, licenseId, tenantId, productId } = current;
  const revoked: LicenseItem = { ...current, status: 'revoked', activatedCount: 0, stagingCount: 0, updatedAt: at };
  // Staging sites give back their places in `stagingCount`, production sites their seats.
  const staging = chunk.filter((activation) => activation.environment === 'staging').length;
  return transact(deps.data, (tx) => ({
    license: tx.license
      .patch({ licenseKey })
      .set(transition ? { ...indexFields(revoked), updatedAt: at } : { updatedAt: at })
      .subtract({ activatedCount: chunk.length - staging, ...(staging > 0 ? { stagingCount: staging } : {}) })
      // The same status, and for the first step the same counts: no activation slipped in unseen.
      .where(({ licenseId: id, status, activatedCount, stagingCount }, { eq, notExists }) =>
        [
          eq(id, licenseId),
          eq(status, current.status),
          ...(transition
            ? [
                eq(activatedCount, current.activatedCount),
                stagingCountIs(stagingCount, { eq, notExists }, current.stagingCount),
              ]
            : []),
        ].join(' AND '),
      )
      .commit(),
    counters: transition && licenseStatusMoves(tx.counter, tenantId, productId, current.status, 'revoked'),
    expiry: transition && expiryItemChanges(tx, current, current, revoked),
    event: transition && outboxEvent(tx, { tenantId, type: 'license.revoked', data: toLicense(revoked, product, now), now }),
    activationCounters: chunk.length > 0 && activationsDeactivated(tx.counter, tenantId, chunk.length),
    activations: chunk.flatMap((activation) => deactivationItems(tx, activation, at, holdOf(holds, activation))),
  }));
}
