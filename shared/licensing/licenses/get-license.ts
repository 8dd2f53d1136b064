import { toActivation } from '../activations/activation-view.js';
import { withLastChecks } from '../activations/last-check.js';
import { activationsOf } from './license-activations.js';
import { toLicense } from './license-view.js';
import { loadLicense, productSummary, type LicenseDeps } from './load-license.js';

/** A license with all its activations, newest first; active ones with the last check their domain items hold. */
export async function getLicense(deps: LicenseDeps, tenantId: string, licenseId: string) {
  const item = await loadLicense(deps, tenantId, licenseId);
  const [product, activations] = await Promise.all([
    productSummary(deps, item.productId),
    activationsOf(deps, licenseId).then((read) => withLastChecks(deps, read)),
  ]);
  return { ...toLicense(item, product, deps.clock.now()), activations: activations.reverse().map(toActivation) };
}
