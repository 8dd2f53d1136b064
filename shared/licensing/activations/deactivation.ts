import { transact, type TransactionEntities } from '../../platform/data/index.js';
import { type Deps, ServiceUnavailableError } from '../../platform/index.js';
import { outboxEvent } from '../../messaging/index.js';
import { activationsDeactivated } from '../licenses/license-counters.js';
import type { LicenseItem } from '../licenses/license-view.js';
import { toActivationListItem, type ActivationItem } from './activation-view.js';
import { lastCheckIn } from './last-check.js';
import { readLicenseById } from './license-by-id.js';

/** Rounds of "the license key moved under us" (a regenerate between read and write). */
const MAX_ROUNDS = 5;

/**
 * Deactivates an active activation in one transaction: the activation becomes `deactivated` with
 * `deactivatedAt` and the last check its domain item held, its domain is freed, the license gives the
 * seat back (conditionally; a staging site's place in `stagingCount`), the counters move and `license.deactivated` is recorded. Returns the
 * deactivated activation, or undefined when it was no longer active (someone else deactivated it first).
 * A license whose key was regenerated meanwhile is followed through its ref; a check recorded between
 * the domain item's read and the write makes the write read it again, so the copied check is the last.
 */
export async function deactivateActivation(
  deps: Pick<Deps, 'data' | 'clock'>,
  activation: ActivationItem,
  owner: { license: LicenseItem | undefined; product: { productId: string; name: string } },
  ipAddress?: string,
): Promise<ActivationItem | undefined> {
  /** The license item that holds the seat; undefined once the license is gone (deleted). */
  let license = owner.license;
  // A staging site gave back its place among the license's staging sites, a production site its seat.
  const staging = activation.environment === 'staging';
  const heldCount = (item: LicenseItem) => (staging ? (item.stagingCount ?? 0) : item.activatedCount);
  // False when the count read was 0: the write then checks that it still is.
  let givesSeatBack = Boolean(license && heldCount(license) > 0);
  const domainKey = { licenseId: activation.licenseId, domain: activation.domain };
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const { data: hold } = await deps.data.entities.activeDomain.get(domainKey).go({ consistent: true });
    const lastCheck = { ...lastCheckIn(hold, activation.activationId), ...(ipAddress ? { lastIpAddress: ipAddress } : {}) };
    const now = deps.clock.now();
    const deactivated: ActivationItem = { ...activation, ...lastCheck, status: 'deactivated', deactivatedAt: now.toISOString() };
    const current = license;
    const outcome = await transact(deps.data, (tx) => ({
      activation: tx.activation
        .patch({ activationId: activation.activationId })
        // tenantId and activatedAt: composites of the status index, whose keys change with the status.
        .set({
          status: 'deactivated',
          deactivatedAt: deactivated.deactivatedAt!,
          tenantId: activation.tenantId,
          activatedAt: activation.activatedAt,
          ...lastCheck,
        })
        .where(({ status }, { eq }) => eq(status, 'active'))
        .commit(),
      // Freed only with the last check that was copied: a check recorded since then is read again.
      domain: tx.activeDomain
        .delete(domainKey)
        .where(({ lastCheckedAt }, { eq, notExists }) => (hold?.lastCheckedAt ? eq(lastCheckedAt, hold.lastCheckedAt) : notExists(lastCheckedAt)))
        .commit(),
      // The seat (a staging site: its place in `stagingCount`) goes back on the license, conditionally.
      seat: current && (staging ? stagingPlace : productionSeat)(tx, current, activation.licenseId, givesSeatBack, now),
      counters: activationsDeactivated(tx.counter, activation.tenantId, 1),
      event: outboxEvent(tx, {
        tenantId: activation.tenantId,
        type: 'license.deactivated',
        data: toActivationListItem(deactivated, {
          // A license deleted meanwhile is still named in the event as it was.
          license: current ?? owner.license ?? { licenseId: activation.licenseId, licenseKey: '', customerEmail: '' },
          product: owner.product,
        }),
        now,
      }),
    }));
    if (outcome.committed) return deactivated;
    if (outcome.refused('activation')) return undefined;
    if (outcome.refused('domain')) continue;
    if (outcome.refused('seat')) {
      // Regenerated (the item moved to a new key) or its count was not what was read: read it again by id.
      const moved = await readLicenseById(deps, activation.licenseId);
      givesSeatBack = Boolean(moved && heldCount(moved) > 0);
      license = moved;
      continue;
    }
    throw outcome.unexpected();
  }
  throw new ServiceUnavailableError();
}

type LicenseTx = Pick<TransactionEntities, 'license'>;

/**
 * The seat goes back on the license; when the count read was 0 (read before the activation being ended
 * committed), the count must still be 0, so a stale read is refused and read again rather than acted on.
 */
function productionSeat(tx: LicenseTx, license: LicenseItem, licenseId: string, givesBack: boolean, now: Date) {
  return givesBack
    ? tx.license
        .patch({ licenseKey: license.licenseKey })
        .add({ activatedCount: -1 })
        .set({ updatedAt: now.toISOString() })
        .where(({ licenseId: id, activatedCount }, { eq, gt }) => `${eq(id, licenseId)} AND ${gt(activatedCount, 0)}`)
        .commit()
    : tx.license
        .check({ licenseKey: license.licenseKey })
        .where(({ licenseId: id, activatedCount }, { eq }) => `${eq(id, licenseId)} AND ${eq(activatedCount, 0)}`)
        .commit();
}

/** The same for a staging site, on `stagingCount` (absent on a license that never had one: 0). */
function stagingPlace(tx: LicenseTx, license: LicenseItem, licenseId: string, givesBack: boolean, now: Date) {
  return givesBack
    ? tx.license
        .patch({ licenseKey: license.licenseKey })
        .add({ stagingCount: -1 })
        .set({ updatedAt: now.toISOString() })
        .where(({ licenseId: id, stagingCount }, { eq, gt }) => `${eq(id, licenseId)} AND ${gt(stagingCount, 0)}`)
        .commit()
    : tx.license
        .check({ licenseKey: license.licenseKey })
        .where(({ licenseId: id, stagingCount }, { eq, notExists }) => `${eq(id, licenseId)} AND (${notExists(stagingCount)} OR ${eq(stagingCount, 0)})`)
        .commit();
}
