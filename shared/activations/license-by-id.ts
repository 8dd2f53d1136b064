import type { Deps } from '../runtime.js';
import type { LicenseItem } from '../licenses/license-view.js';
import { readLicense } from '../licensing/license-lookup.js';

/**
 * A license by its stable id: the ref gives the current key, then the item itself (both strongly
 * consistent, so a key just regenerated is followed). Undefined when the license is gone.
 */
export async function readLicenseById(deps: Pick<Deps, 'data'>, licenseId: string): Promise<LicenseItem | undefined> {
  const { data: ref } = await deps.data.entities.licenseRef.get({ licenseId }).go({ consistent: true });
  if (!ref) return undefined;
  const license = await readLicense(deps, ref.licenseKey);
  return license?.licenseId === licenseId ? license : undefined;
}
