import { type Deps, ForbiddenError, NotFoundError } from '../../../platform/index.js';
import { inRollout, type Platform, type PlatformFileItem } from '../../../catalog/index.js';
import type { LicenseItem } from '../../licenses/license-view.js';
import { couldBeLicenseKey } from '../../licenses/license-key.js';
import { machineLease } from '../../leases/leases.js';
import { readLicense } from '../../operations/license-lookup.js';
import type { ProductCatalog } from '../../operations/product-catalog.js';
import { type LicenseAccess, licenseAccess, mayReceive } from '../license-access.js';
import { chooseOffer } from '../offer.js';
import type { ProductItem, ReleaseCatalog, ReleaseItem } from '../release-catalog.js';

/** A floating license's machine without a live lease (DECISIONS §26): it gets no feed and no file. */
export const NO_LIVE_LEASE = 'No live lease for this machine';

/** Who asks for a feed: the key, and the machine when the app names it (query `license_key`, `machine`). */
export type FeedRequest = { slug: string; licenseKey: string; machine?: string; baseUrl: string };

/** What a key may have of a product's desktop releases, for the feeds to describe. */
export type FeedContext = {
  product: ProductItem;
  published: ReleaseItem[];
  access: Extract<LicenseAccess, { kind: 'channels' }>;
  request: FeedRequest;
};

/**
 * The key's right to the feeds of the product `slug` (DECISIONS §26): an unknown product 404 `Product not found`; a key
 * that may download nothing of it (unknown, another product's, revoked, suspended, expired without updates after
 * expiry) 403 with the license message; a floating license's machine must hold a live lease (403 `No live lease for
 * this machine`, also when no machine is named). Reads: the product and its releases (cached per container, as the
 * update check's), the license (strongly consistent), and for a floating license the machine's hold (one GetItem).
 */
export async function feedContext(
  deps: Pick<Deps, 'data' | 'clock'>,
  { products, releases }: { products: ProductCatalog; releases: ReleaseCatalog },
  request: FeedRequest,
): Promise<FeedContext> {
  const [entry, license] = await Promise.all([
    releases.bySlug(request.slug),
    couldBeLicenseKey(request.licenseKey) ? readLicense(deps, request.licenseKey) : undefined,
  ]);
  if (!entry) throw new NotFoundError('Product not found');
  const access = await licenseAccess(products, license, entry.product, deps.clock.now());
  if (access.kind === 'none') throw new ForbiddenError(access.reason);
  await requireLease(deps, license!, request.machine);
  return { product: entry.product, published: entry.published, access, request };
}

/** A floating license serves only a machine that holds one of its leases now (DECISIONS §18). */
export async function requireLease(deps: Pick<Deps, 'data' | 'clock'>, license: LicenseItem, machine: string | undefined): Promise<void> {
  if (!license.floating) return;
  if (machine === undefined || !(await machineLease(deps, license.licenseId, machine))) throw new ForbiddenError(NO_LIVE_LEASE);
}

/** The release's file for `platform`, if it has one. */
export const fileFor = (release: ReleaseItem, platform: Platform): PlatformFileItem | undefined =>
  release.platformFiles?.find((file) => file.platform === platform);

/**
 * The release a feed for `platforms` offers (DECISIONS §14 as the update check: the key's channels, the rollout drawn for
 * the machine, else the key, and for an expired license kept to releases before its expiry, the newest of those),
 * among the releases that have a file for one of the platforms; none when no such release may be had.
 */
export function offeredRelease(context: FeedContext, platforms: readonly Platform[]): ReleaseItem | undefined {
  const withFiles = context.published.filter((release) => platforms.some((platform) => fileFor(release, platform)));
  return chooseOffer(context.product, withFiles, context.access, { rolloutSubject: rolloutSubject(context.request) }).release;
}

/**
 * Every release with a file for `platform` the key may download and whose rollout includes the machine, newest first,
 * from the offered one down (an appcast lists them, so that an older system gets the newest release it can run).
 */
export function offeredHistory(context: FeedContext, platform: Platform, limit: number): ReleaseItem[] {
  const offered = offeredRelease(context, [platform]);
  if (!offered) return [];
  const subject = rolloutSubject(context.request);
  const from = context.published.indexOf(offered);
  return context.published
    .slice(from)
    .filter((release) => fileFor(release, platform) && mayReceive(context.access, release) && inRollout(release, subject))
    .slice(0, limit);
}

const rolloutSubject = (request: FeedRequest) => request.machine ?? request.licenseKey;

/**
 * A platform file's licensed download (DECISIONS §5, §26): the path names the file, ending in its name (electron-updater
 * picks a file by its extension, and on macOS by `arm64` in the path, which the platform gives); the query is the
 * feed's own, so the URL works when electron-updater puts the feed's query string in place of the file's.
 */
export function platformFileUrl(request: FeedRequest, release: ReleaseItem, file: PlatformFileItem): string {
  const query = new URLSearchParams({ license_key: request.licenseKey, ...(request.machine !== undefined && { machine: request.machine }) });
  return `${request.baseUrl}/v1/download/${encodeURIComponent(release.releaseId)}/${file.platform}/${encodeURIComponent(file.fileName)}?${query}`;
}
