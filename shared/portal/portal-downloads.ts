import { ForbiddenError, NotFoundError } from '../platform/index.js';
import { coveredProducts, DOWNLOAD_URL_TTL_SECONDS, licenseProblem, RELEASE_NOT_FOUND } from '../licensing/index.js';
import { type Channel, channelAllows, countDownload, DEFAULT_CHANNEL, publishedReleaseItems } from '../catalog/index.js';
import type { DownloadLinks } from '../platform/storage/index.js';
import { licensesOf, type PortalDataDeps, type PortalScope } from './customer-scope.js';
import { isValidDownloadLink, signedDownloadUrl } from './download-link.js';
import type { LinkSecret } from './link-secret.js';

export const INVALID_DOWNLOAD_LINK = 'Invalid or expired download link';

/**
 * The latest published release of each product the customer holds a usable license of, one entry per product,
 * each with a fresh signed link: the latest on the channels those licenses receive (DECISIONS §14), so a stable
 * customer is not handed a beta. A bundle's license counts for each product the bundle includes (DECISIONS §23).
 * Deleted products and products without such a release are left out.
 */
export async function portalDownloads(deps: PortalDataDeps, secret: LinkSecret, scope: PortalScope, baseUrl: string) {
  return (await downloadsWithHistory(deps, secret, scope, baseUrl, 0)).map(({ earlier: _, ...latest }) => latest);
}

/**
 * The same, each with up to `earlier` previous versions on the same channels, newest first, each with its own signed
 * link: what the hosted portal offers to roll back to.
 */
export async function downloadsWithHistory(deps: PortalDataDeps, secret: LinkSecret, scope: PortalScope, baseUrl: string, earlier: number) {
  const now = deps.clock.now();
  /** Per licensed product, the most adventurous channel among the customer's usable licenses of it. */
  const licensed = new Map<string, Channel>();
  const usable = (await licensesOf(deps, scope)).filter((license) => !licenseProblem(license, now));
  const covered = await coveredProducts(deps, usable.map((license) => license.productId));
  for (const license of usable) {
    const channel = license.channel ?? DEFAULT_CHANNEL;
    for (const { id: productId } of covered.get(license.productId) ?? []) {
      const held = licensed.get(productId);
      licensed.set(productId, held === undefined || channelAllows(channel, held) ? channel : held);
    }
  }
  const entries = await Promise.all(
    [...licensed].map(async ([productId, channel]) => {
      const [{ data: product }, releases] = await Promise.all([
        deps.data.entities.product.get({ productId }).go({ attributes: ['name', 'slug', 'deletedAt'] }),
        publishedReleaseItems(deps, productId),
      ]);
      const [release, ...previous] = releases.filter((candidate) => channelAllows(channel, candidate.channel ?? DEFAULT_CHANNEL));
      if (!product || product.deletedAt || !release) return undefined;
      return {
        productName: product.name,
        productSlug: product.slug,
        releaseId: release.releaseId,
        version: release.version,
        fileName: release.fileName,
        fileSize: release.fileSize,
        releaseNotes: release.releaseNotes ?? null,
        releasedAt: release.releasedAt ?? release.createdAt,
        downloadUrl: await signedDownloadUrl(secret, baseUrl, release.releaseId, now),
        earlier: await Promise.all(
          previous.slice(0, earlier).map(async (older) => ({
            version: older.version,
            fileName: older.fileName,
            fileSize: older.fileSize,
            releasedAt: older.releasedAt ?? older.createdAt,
            downloadUrl: await signedDownloadUrl(secret, baseUrl, older.releaseId, now),
          })),
        ),
      };
    }),
  );
  return entries.filter((entry) => entry !== undefined);
}

/**
 * `GET /dl/{releaseId}`: a link we signed, not expired (else 403), of a published release of a product that is not
 * deleted (else 404: a deleted product is unknown to every public surface, links issued before included). The
 * download is counted (on condition the release is still published), then answered with a short-lived storage
 * URL that saves the file under its original name, as the licensed download does. A release id of the wrong
 * shape has no valid signature, so it is answered 403 like any other link we did not sign.
 */
export async function signedDownload(
  deps: PortalDataDeps,
  sources: { secret: LinkSecret; links: DownloadLinks },
  link: { releaseId: string; expires?: string; signature?: string },
): Promise<string> {
  // Checked first: only ids we signed get this far, so no malformed id reaches the table.
  if (!(await isValidDownloadLink(sources.secret, link, deps.clock.now()))) throw new ForbiddenError(INVALID_DOWNLOAD_LINK);
  const { data: release } = await deps.data.entities.release.get({ releaseId: link.releaseId }).go({ consistent: true });
  if (!release || release.status !== 'published') throw new NotFoundError(RELEASE_NOT_FOUND);
  const { data: product } = await deps.data.entities.product.get({ productId: release.productId }).go({ attributes: ['deletedAt'], consistent: true });
  if (!product || product.deletedAt) throw new NotFoundError(RELEASE_NOT_FOUND);
  if (!(await countDownload(deps, release.releaseId))) throw new NotFoundError(RELEASE_NOT_FOUND);
  return sources.links.presign(release.filePath, release.fileName, DOWNLOAD_URL_TTL_SECONDS);
}
