import { createHash } from 'node:crypto';
import { transact } from '../../platform/data/index.js';
import { outboxEvent } from '../../messaging/index.js';
import type { LicenseItem } from '../licenses/license-view.js';
import type { Deps } from '../../platform/index.js';

/**
 * Records `license.seats_exhausted` for a pool seen full with these live leases, once per fill: the event is written
 * with the pool's fill marker, on the condition that the marker names another set of leases. Requests that see the
 * same fill (the lease that filled it, refusals after it) agree on its key, so only the first writes; a fill after a
 * lease ended is another set, so it is told again. Bookkeeping: a refusal here is the fill already told.
 */
export async function noticePoolFull(deps: Pick<Deps, 'data' | 'clock'>, license: LicenseItem, liveLeaseIds: string[]): Promise<void> {
  const fillKey = createHash('sha256').update([...liveLeaseIds].sort().join(',')).digest('base64url').slice(0, 22);
  // Already told (the usual case for a refusal at a full pool): one small read instead of a refused transaction.
  const told = await deps.data.reads.leasePoolFill.get({ licenseId: license.licenseId }, { consistent: true });
  if (told?.fillKey === fillKey) return;
  const now = deps.clock.now();
  await transact(deps.data, (tx) => ({
    fill: tx.leasePoolFill
      .put({ licenseId: license.licenseId, fillKey, filledAt: now.toISOString() })
      .where(({ fillKey: current }, { notExists, ne }) => `${notExists(current)} OR ${ne(current, fillKey)}`)
      .commit(),
    event: outboxEvent(tx, {
      tenantId: license.tenantId,
      type: 'license.seats_exhausted',
      data: { licenseId: license.licenseId, licenseKey: license.licenseKey, productId: license.productId, seats: license.seats, leaseIds: [...liveLeaseIds].sort() },
      now,
    }),
  }));
}
