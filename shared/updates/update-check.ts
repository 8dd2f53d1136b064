import { NotFoundError } from '../errors.js';
import { licenseProblem } from '../licensing/license-state.js';
import { couldBeLicenseKey } from '../licenses/license-key.js';
import { readLicense } from '../licensing/license-lookup.js';
import type { ActivityRecorder } from '../licensing/activity.js';
import type { Deps } from '../runtime.js';
import { signingIdentityOf, type SigningIdentity } from '../signing/signing-keys.js';
import type { ReleaseCatalog } from './release-catalog.js';
import { updateInfo } from './wordpress.js';

/**
 * `GET /v1/wp/update-check`: product and releases from the per-slug cache, the key from one strongly
 * consistent read, so a revoked or regenerated key loses `package` at once. The installed `version`
 * changes nothing in the answer (DECISIONS §5); with the site's domain it is recorded as that activation's
 * last check, and counted among the product's installs by version. Answers the product too: whose key signs it.
 */
export async function checkForUpdate(
  deps: Pick<Deps, 'data' | 'clock'>,
  context: { releases: ReleaseCatalog; activity: ActivityRecorder },
  input: { slug: string; licenseKey: string; baseUrl: string; site?: { domain: string; ipAddress: string; version: string } },
): Promise<{ info: ReturnType<typeof updateInfo>; product: SigningIdentity }> {
  const { releases } = context;
  // A value that cannot be a key names no license: no read for it (the answer is the unknown key's).
  const [entry, license] = await Promise.all([
    releases.bySlug(input.slug),
    couldBeLicenseKey(input.licenseKey) ? readLicense(deps, input.licenseKey) : undefined,
  ]);
  if (!entry) throw new NotFoundError('Product not found');
  const latest = entry.published[0];
  const entitled =
    license !== undefined &&
    license.productId === entry.product.productId &&
    licenseProblem(license, deps.clock.now()) === undefined;
  const packageUrl =
    latest && entitled
      ? `${input.baseUrl}/v1/download/${encodeURIComponent(latest.releaseId)}?license_key=${encodeURIComponent(license.licenseKey)}`
      : undefined;
  if (input.site && license && license.productId === entry.product.productId) {
    await context.activity.domainSeen(license, input.site.domain, input.site.ipAddress, input.site.version);
  }
  return { info: updateInfo(entry, packageUrl), product: signingIdentityOf(entry.product) };
}
