import { type Deps, ServiceUnavailableError } from '../../platform/index.js';
import type { LicenseItem } from '../licenses/license-view.js';
import { readLicense } from '../operations/license-lookup.js';

/** Rounds of "the key moved between reading the ref and reading the item" before giving up. */
const FOLLOW_ROUNDS = 5;

/**
 * A license by its stable id: the ref gives the current key, then the item itself (both strongly
 * consistent, so a key just regenerated is followed). A regenerate that commits between the two reads
 * leaves the ref pointing elsewhere: the ref is read again, and only a ref that still names the missing
 * key means the license is gone. Undefined when it is; a key that keeps moving is a 503, never a wrong "gone".
 */
export async function readLicenseById(deps: Pick<Deps, 'data'>, licenseId: string): Promise<LicenseItem | undefined> {
  const readRef = async () => (await deps.data.entities.licenseRef.get({ licenseId }).go({ consistent: true })).data;
  let ref = await readRef();
  for (let round = 0; ref && round < FOLLOW_ROUNDS; round++) {
    const license = await readLicense(deps, ref.licenseKey);
    if (license?.licenseId === licenseId) return license;
    const again = await readRef();
    if (!again || again.licenseKey === ref.licenseKey) return undefined;
    ref = again;
  }
  if (!ref) return undefined;
  throw new ServiceUnavailableError();
}
