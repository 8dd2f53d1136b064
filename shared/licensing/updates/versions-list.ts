import { type Deps, ForbiddenError, NotFoundError } from '../../platform/index.js';
import { couldBeLicenseKey } from '../licenses/license-key.js';
import { readLicense } from '../operations/license-lookup.js';
import type { ProductCatalog } from '../operations/product-catalog.js';
import { DEFAULT_CHANNEL, type SigningIdentity, signingIdentityOf } from '../../catalog/index.js';
import { downloadUrl } from './download-url.js';
import { licenseAccess, mayReceive } from './license-access.js';
import type { ReleaseCatalog } from './release-catalog.js';

/**
 * `GET /v1/wp/versions` (DECISIONS §14), for rolling back: every published release the key may download, newest
 * first, each with its download URL. A key that may download nothing is 403 with the license message; an expired
 * license of a product that keeps releases published before expiry lists those. Neither rollouts nor the site's
 * requirements narrow it: the site's owner chooses. `seen` learns the product as soon as it is known (its key signs
 * the answer, refusals included). A bundle's key lists the releases of any product the bundle includes (DECISIONS §23).
 */
export async function listVersions(
  deps: Pick<Deps, 'data' | 'clock'>,
  catalogs: { products: ProductCatalog; releases: ReleaseCatalog },
  input: { slug: string; licenseKey: string; baseUrl: string },
  seen: (product: SigningIdentity) => void,
) {
  const [entry, license] = await Promise.all([
    catalogs.releases.bySlug(input.slug),
    couldBeLicenseKey(input.licenseKey) ? readLicense(deps, input.licenseKey) : undefined,
  ]);
  if (!entry) throw new NotFoundError('Product not found');
  seen(signingIdentityOf(entry.product));
  const access = await licenseAccess(catalogs.products, license, entry.product, deps.clock.now());
  if (access.kind === 'none') throw new ForbiddenError(access.reason);
  return {
    versions: entry.published
      .filter((release) => mayReceive(access, release))
      .map((release) => ({
        version: release.version,
        channel: release.channel ?? DEFAULT_CHANNEL,
        releasedAt: release.releasedAt ?? null,
        requires: release.requires ?? entry.product.requires ?? null,
        requiresPhp: release.requiresPhp ?? entry.product.requiresPhp ?? null,
        tested: release.tested ?? entry.product.tested ?? null,
        package: downloadUrl(input.baseUrl, release.releaseId, license!.licenseKey),
      })),
  };
}
