import { transact } from '../../platform/data/index.js';
import { ConflictError } from '../../platform/index.js';
import { generateLicenseKey } from './license-key.js';
import { toLicense, type License } from './license-view.js';
import { stagingCountIs } from './license-counters.js';
import { loadLicense, type LicenseDeps } from './load-license.js';

/** Rounds of "taken key or changed license" before answering 409. */
const REGENERATE_ROUNDS = 5;

/**
 * Moves the license to a new key in one transaction: the old item goes (only if unchanged since it
 * was read, so a concurrent activation or edit is never lost), the copy under the new key is created
 * (only if that key is free) and the ref follows (only from the old key). The old key stops working
 * the moment the transaction commits. Activations are keyed by license id and stay attached.
 */
export async function regenerateLicenseKey(deps: LicenseDeps, tenantId: string, licenseId: string): Promise<License> {
  for (let round = 0; round < REGENERATE_ROUNDS; round++) {
    const current = await loadLicense(deps, tenantId, licenseId);
    const { data: product } = await deps.data.entities.product.get({ productId: current.productId }).go();
    if (!product) throw new Error(`Product ${current.productId} of license ${licenseId} is missing`);
    const moved = { ...current, licenseKey: generateLicenseKey(product.licensePrefix), updatedAt: deps.clock.now().toISOString() };
    const outcome = await transact(deps.data, (tx) => ({
      oldKey: tx.license
        .delete({ licenseKey: current.licenseKey })
        // Both counts, not only `updatedAt`: two activations within one millisecond leave the same `updatedAt`, and the
        // copy must not lose a seat or a staging site taken after the read.
        .where(({ licenseId: id, updatedAt, activatedCount, stagingCount }, { eq, notExists }) =>
          [
            eq(id, licenseId),
            eq(updatedAt, current.updatedAt),
            eq(activatedCount, current.activatedCount),
            stagingCountIs(stagingCount, { eq, notExists }, current.stagingCount),
          ].join(' AND '),
        )
        .commit(),
      newKey: tx.license.create(moved).commit(),
      ref: tx.licenseRef
        .patch({ licenseId })
        .set({ licenseKey: moved.licenseKey })
        .where(({ licenseKey }, { eq }) => eq(licenseKey, current.licenseKey))
        .commit(),
    }));
    if (outcome.committed) return toLicense(moved, { id: product.productId, name: product.name, slug: product.slug }, deps.clock.now());
    // A taken new key or a concurrent change (an activation, an edit, a delete): the next round reads
    // the license again (404 once it is gone) and draws another key.
  }
  throw new ConflictError('License was changed concurrently; retry');
}
