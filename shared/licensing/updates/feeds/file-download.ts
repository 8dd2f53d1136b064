import { type Deps, ForbiddenError, NotFoundError } from '../../../platform/index.js';
import { countDownload, type Platform } from '../../../catalog/index.js';
import type { DownloadLinks } from '../../../platform/storage/index.js';
import { readLicense } from '../../operations/license-lookup.js';
import { LICENSE_MESSAGES } from '../../operations/messages.js';
import type { ProductCatalog } from '../../operations/product-catalog.js';
import { DOWNLOAD_URL_TTL_SECONDS, RELEASE_NOT_AVAILABLE, RELEASE_NOT_FOUND } from '../download.js';
import { licenseAccess, mayReceive } from '../license-access.js';
import { requireLease } from './feed-access.js';

export const FILE_NOT_FOUND = 'File not found';

export type PlatformFileRequest = { releaseId: string; platform: Platform; fileName: string; licenseKey: string; machine?: string };

/**
 * `GET /v1/download/{releaseId}/{platform}/{fileName}` (DECISIONS §26): a feed's file, under the rules of the release's
 * download (§5, §14): the key known, of the release's product or a bundle including it (§23), not revoked or suspended (403 with its message), the
 * release published and its product live (404), on the key's channels (403 `Release not available to this license`),
 * within what an expired key keeps (403 `License has expired`); a floating license's machine holding a live lease (403
 * `No live lease for this machine`); the release having that file (404 `File not found`). Counted as a download of
 * the release, then answered with a short-lived storage URL that saves the file under its name.
 */
export async function downloadPlatformFile(
  deps: Pick<Deps, 'data' | 'clock'>,
  { products, links }: { products: ProductCatalog; links: DownloadLinks },
  input: PlatformFileRequest,
): Promise<string> {
  const [license, { data: release }] = await Promise.all([
    readLicense(deps, input.licenseKey),
    deps.data.entities.release.get({ releaseId: input.releaseId }).go({ consistent: true }),
  ]);
  if (!license) throw new ForbiddenError(LICENSE_MESSAGES.notFound);
  if (license.status === 'revoked' || license.status === 'suspended') throw new ForbiddenError(LICENSE_MESSAGES[license.status]);
  if (!release || release.status !== 'published') throw new NotFoundError(RELEASE_NOT_FOUND);
  // The product fresh: what an expired key keeps is its setting as it is now, as the feed that listed the file read it.
  const product = await deps.data.reads.product.get({ productId: release.productId });
  if (!product || product.deletedAt) throw new NotFoundError(RELEASE_NOT_FOUND);
  const access = await licenseAccess(products, license, product, deps.clock.now());
  if (access.kind === 'none') throw new ForbiddenError(access.reason);
  if (!mayReceive(access, release)) {
    const afterExpiry = access.releasedBefore !== undefined && mayReceive({ kind: 'channels', channel: access.channel }, release);
    throw new ForbiddenError(afterExpiry ? LICENSE_MESSAGES.expired : RELEASE_NOT_AVAILABLE);
  }
  await requireLease(deps, license, input.machine);
  const file = release.platformFiles?.find((candidate) => candidate.platform === input.platform && candidate.fileName === input.fileName);
  if (!file) throw new NotFoundError(FILE_NOT_FOUND);
  if (!(await countDownload(deps, release.releaseId))) throw new NotFoundError(RELEASE_NOT_FOUND);
  return links.presign(file.filePath, file.fileName, DOWNLOAD_URL_TTL_SECONDS);
}
