import { type Entities, transact, writeItem } from '../../platform/data/index.js';
import { outboxEvent } from '../../messaging/index.js';
import type { Deps } from '../../platform/index.js';
import { settleDueItems } from './due-items.js';
import { dueAt } from './expiry-items.js';
import { indexFields } from './index-fields.js';
import { licenseStatusMoves } from './license-counters.js';
import { toLicense, type LicenseItem, type ProductSummary } from './license-view.js';
import { productSummaries } from './load-license.js';

type SweepDeps = Pick<Deps, 'data' | 'clock'>;
type ExpiryItem = Awaited<ReturnType<ReturnType<Entities['licenseExpiry']['query']['byDue']>['go']>>['data'][number];

/** One run handles at most this many due licenses per shard; the next run takes the rest. */
const SWEEP_BATCH_PER_SHARD = 200;

export type SweepResult = { expired: number; cleared: number; retried: number };

/**
 * Moves active licenses whose `expiresAt` (or, in grace, `graceUntil`) has passed to `expired` and emits `license.expired`.
 * It reads only due expiry items (a key-range query per shard), never the licenses at large.
 * Each license changes in its own transaction, conditioned on still being active with the same
 * expiry, so a concurrent edit wins and the item is looked at again by the next run.
 */
export function sweepExpiredLicenses(deps: SweepDeps): Promise<SweepResult> {
  return settleDue(deps, () => true);
}

/**
 * What the sweep does, for one tenant's due licenses only: run before a list filtered by status, so that the index it
 * reads and its count agree with the status each license reads at once (DECISIONS §22). It reads only due expiry items,
 * which the sweep keeps few.
 */
export async function settleTenantExpiries(deps: SweepDeps, tenantId: string): Promise<void> {
  await settleDue(deps, (item) => item.tenantId === tenantId);
}

async function settleDue(deps: SweepDeps, mine: (item: ExpiryItem) => boolean): Promise<SweepResult> {
  const now = deps.clock.now();
  const products = new Map<string, Promise<ProductSummary | undefined>>();
  const productOf = (productId: string) => {
    if (!products.has(productId)) products.set(productId, productSummaries(deps, [productId]).then((m) => m.get(productId)));
    return products.get(productId)!;
  };
  const result: SweepResult = { expired: 0, cleared: 0, retried: 0 };
  const due = async (shard: string) =>
    (await deps.data.entities.licenseExpiry.query.byDue({ shard }).lte({ expiresAt: now.toISOString() }).go({ count: SWEEP_BATCH_PER_SHARD, pages: 'all' })).data.filter(mine);
  await settleDueItems(due, (item) => settle(deps, item, now, productOf), result);
  return result;
}

/** The license now; `deleted` when its ref is gone, `moving` when its key is being regenerated right now. */
export async function currentLicense(deps: SweepDeps, licenseId: string): Promise<LicenseItem | 'deleted' | 'moving'> {
  const { data: ref } = await deps.data.entities.licenseRef.get({ licenseId }).go({ consistent: true });
  if (!ref) return 'deleted';
  const { data: license } = await deps.data.entities.license.get({ licenseKey: ref.licenseKey }).go({ consistent: true });
  return license?.licenseId === licenseId ? license : 'moving';
}

async function settle(
  deps: SweepDeps,
  item: ExpiryItem,
  now: Date,
  productOf: (productId: string) => Promise<ProductSummary | undefined>,
): Promise<keyof SweepResult> {
  const license = await currentLicense(deps, item.licenseId);
  const expiryKey = { shard: item.shard, expiresAt: item.expiresAt, licenseId: item.licenseId };
  if (license === 'moving') return 'retried';
  if (license === 'deleted') {
    await writeItem(() => deps.data.entities.licenseExpiry.delete(expiryKey).go());
    return 'cleared';
  }
  if (dueAt(license) !== item.expiresAt) {
    // Stale: removed only while the license is still as read, so an edit that re-armed it is kept.
    const outcome = await transact(deps.data, (tx) => ({
      license: tx.license.check({ licenseKey: license.licenseKey }).where(({ updatedAt }, { eq }) => eq(updatedAt, license.updatedAt)).commit(),
      expiry: tx.licenseExpiry.delete(expiryKey).commit(),
    }));
    return outcome.committed ? 'cleared' : 'retried';
  }
  const product = (await productOf(license.productId)) ?? { id: license.productId, name: '', slug: '' };
  const at = now.toISOString();
  const expired: LicenseItem = { ...license, status: 'expired', updatedAt: at };
  const { licenseKey, licenseId, tenantId, productId } = license;
  const outcome = await transact(deps.data, (tx) => ({
    license: tx.license
      .patch({ licenseKey })
      .set({ ...indexFields(expired), updatedAt: at })
      // As read: active, with the same expiry and grace (a payment or an edit since wins; the next run looks again).
      .where(({ licenseId: id, status, expiresAt, graceUntil }, { eq, notExists }) =>
        [
          eq(id, licenseId),
          eq(status, 'active'),
          eq(expiresAt, license.expiresAt!),
          license.graceUntil ? eq(graceUntil, license.graceUntil) : notExists(graceUntil),
        ].join(' AND '),
      )
      .commit(),
    counters: licenseStatusMoves(tx.counter, tenantId, productId, 'active', 'expired'),
    event: outboxEvent(tx, { tenantId, type: 'license.expired', data: toLicense(expired, product, now), now }),
    expiry: tx.licenseExpiry.delete(expiryKey).commit(),
  }));
  // Refused: the license changed since it was read; the next run looks at it again.
  return outcome.committed ? 'expired' : 'retried';
}
