import { type Deps, ForbiddenError, NotFoundError } from '../../platform/index.js';
import { countDownload } from '../../catalog/index.js';
import { readLicense } from '../operations/license-lookup.js';
import { LICENSE_MESSAGES } from '../operations/messages.js';
import type { ProductCatalog } from '../operations/product-catalog.js';
import type { DownloadLinks } from '../../platform/storage/index.js';
import { licenseAccess, mayReceive } from './license-access.js';

/** Lifetime of the storage URL a download redirects to: long enough to start, too short to share. */
export const DOWNLOAD_URL_TTL_SECONDS = 300;
export const RELEASE_NOT_FOUND = 'Release not found';
export const RELEASE_NOT_AVAILABLE = 'Release not available to this license';

/**
 * `GET /v1/download/{releaseId}`: the key must be known, of the release's product (or of a bundle that includes it,
 * DECISIONS §23) and not revoked or suspended
 * (else 403 with its message), the release published and its product live (else 404). A valid key downloads any
 * release on its channels (DECISIONS §14: rollback), another channel's is 403; an expired key downloads only what
 * its product keeps after expiry (releases published before it, the product's setting read fresh), else 403
 * `License has expired`. The download is
 * counted, then answered with a short-lived storage URL that saves the file under its original name.
 */
export async function downloadRelease(
  deps: Pick<Deps, 'data' | 'clock'>,
  sources: { products: ProductCatalog; links: DownloadLinks },
  input: { releaseId: string; licenseKey: string },
): Promise<string> {
  const { release: releases } = deps.data.entities;
  const [license, { data: release }] = await Promise.all([
    readLicense(deps, input.licenseKey),
    releases.get({ releaseId: input.releaseId }).go({ consistent: true }),
  ]);
  if (!license) throw new ForbiddenError(LICENSE_MESSAGES.notFound);
  if (license.status === 'revoked' || license.status === 'suspended') throw new ForbiddenError(LICENSE_MESSAGES[license.status]);
  if (!release || release.status !== 'published') throw new NotFoundError(RELEASE_NOT_FOUND);
  const product = await sources.products.byId(release.productId);
  if (!product || product.deleted) throw new NotFoundError(RELEASE_NOT_FOUND);
  const now = deps.clock.now();
  let access = await licenseAccess(sources.products, license, product, now);
  if (access.kind === 'none' && access.expired) {
    // What an expired key keeps is the product's setting as it is now, as the update check that offered it read it.
    const current = await deps.data.reads.product.get({ productId: product.productId });
    access = await licenseAccess(sources.products, license, { productId: product.productId, updatesAfterExpiry: current?.updatesAfterExpiry }, now);
  }
  if (access.kind === 'none') throw new ForbiddenError(access.reason);
  if (!mayReceive(access, release)) {
    // On the license's channels but published after it expired: renewing would give it.
    const afterExpiry = access.releasedBefore !== undefined && mayReceive({ kind: 'channels', channel: access.channel }, release);
    throw new ForbiddenError(afterExpiry ? LICENSE_MESSAGES.expired : RELEASE_NOT_AVAILABLE);
  }
  if (!(await countDownload(deps, release.releaseId))) throw new NotFoundError(RELEASE_NOT_FOUND);
  return sources.links.presign(release.filePath, release.fileName, DOWNLOAD_URL_TTL_SECONDS);
}
