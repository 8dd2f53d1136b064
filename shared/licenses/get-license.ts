import { toActivation } from '../activations/activation-view.js';
import { activationsOf } from './license-activations.js';
import { toLicense } from './license-view.js';
import { loadLicense, productSummary, type LicenseDeps } from './load-license.js';

/** A license with all its activations, newest first. */
export async function getLicense(deps: LicenseDeps, tenantId: string, licenseId: string) {
  const item = await loadLicense(deps, tenantId, licenseId);
  const [product, activations] = await Promise.all([productSummary(deps, item.productId), activationsOf(deps, licenseId)]);
  return { ...toLicense(item, product), activations: activations.reverse().map(toActivation) };
}
