import { setTimeout as delay } from 'node:timers/promises';
import type { ActivationItem } from '../activations/activation-view.js';
import { lastCheckIn, type DomainHold } from '../activations/last-check.js';
import type { TransactionEntities } from '../../platform/data/index.js';
import type { LicenseItem } from './license-view.js';
import type { LicenseDeps } from './load-license.js';

/**
 * A transaction holds at most 100 items. Deactivating or removing one activation takes two (the
 * activation and its active-domain item); the first transaction of a revoke or delete also carries
 * the license, its ref, counters, expiry item and event with its pending marker (under 20), and the request's audit
 * entry with its chain head (2).
 */
export const FIRST_CHUNK = 39;
export const LATER_CHUNK = 45;

/** Re-reads (200 ms apart) while the activation index still lags behind the license's count. */
const INDEX_LAG_RETRIES = 5;

/** Every activation of a license, active or not (its history is bounded by what one license sees). */
export async function activationsOf(deps: LicenseDeps, licenseId: string): Promise<ActivationItem[]> {
  const { data } = await deps.data.entities.activation.query.byLicense({ licenseId }).go({ pages: 'all' });
  return data;
}

/** The license's activations, re-read briefly while the eventually consistent index lags behind its counts (seats and staging sites). */
export async function activationsRead(deps: LicenseDeps, license: LicenseItem): Promise<ActivationItem[]> {
  let activations = await activationsOf(deps, license.licenseId);
  const active = license.activatedCount + (license.stagingCount ?? 0);
  for (let lag = 0; activations.filter((a) => a.status === 'active').length < active && lag < INDEX_LAG_RETRIES; lag++) {
    await delay(200);
    activations = await activationsOf(deps, license.licenseId);
  }
  return activations;
}

/**
 * Items that deactivate one active activation, conditioned on it still being active, and free its domain.
 * `hold`: its domain item as read (strongly consistent); its last check is copied onto the activation,
 * and the domain is freed only if no check was recorded since that read.
 */
export function deactivationItems(tx: TransactionEntities, activation: ActivationItem, now: string, hold: DomainHold | undefined) {
  const { activationId, licenseId, domain, tenantId, activatedAt } = activation;
  const checkedAt = hold?.lastCheckedAt;
  return [
    tx.activation
      .patch({ activationId })
      // With every composite of the indexes the status is part of, so ElectroDB can rebuild their keys.
      .set({ status: 'deactivated', deactivatedAt: now, tenantId, licenseId, activatedAt, ...lastCheckIn(hold, activationId) })
      .where(({ status }, { eq }) => eq(status, 'active'))
      .commit(),
    tx.activeDomain
      .delete({ licenseId, domain })
      .where(({ activationId: holder, lastCheckedAt }, { eq, notExists }) =>
        `${eq(holder, activationId)} AND ${checkedAt ? eq(lastCheckedAt, checkedAt) : notExists(lastCheckedAt)}`,
      )
      .commit(),
  ];
}
