import { ForbiddenError, NotFoundError } from '../errors.js';
import { countDownload } from '../releases/download-count.js';
import { licenseProblem } from '../licensing/license-state.js';
import { readLicense } from '../licensing/license-lookup.js';
import { LICENSE_MESSAGES } from '../licensing/messages.js';
import type { ProductCatalog } from '../licensing/product-catalog.js';
import type { Deps } from '../runtime.js';
import type { DownloadLinks } from '../storage/download-links.js';

/** Lifetime of the storage URL a download redirects to: long enough to start, too short to share. */
export const DOWNLOAD_URL_TTL_SECONDS = 300;
export const RELEASE_NOT_FOUND = 'Release not found';

/**
 * `GET /v1/download/{releaseId}`: the key must be valid and of the release's product (else 403), the
 * release published and its product live (else 404). The download is counted, then answered with a
 * short-lived storage URL that saves the file under its original name.
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
  const problem = licenseProblem(license, deps.clock.now());
  if (problem) throw new ForbiddenError(problem);
  if (!release || release.status !== 'published') throw new NotFoundError(RELEASE_NOT_FOUND);
  const product = await sources.products.byId(release.productId);
  if (!product || product.deleted) throw new NotFoundError(RELEASE_NOT_FOUND);
  if (license.productId !== release.productId) throw new ForbiddenError(LICENSE_MESSAGES.wrongProduct);
  if (!(await countDownload(deps, release.releaseId))) throw new NotFoundError(RELEASE_NOT_FOUND);
  return sources.links.presign(release.filePath, release.fileName, DOWNLOAD_URL_TTL_SECONDS);
}
