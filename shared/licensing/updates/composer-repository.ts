import { AppError, type Deps, ForbiddenError, NotFoundError } from '../../platform/index.js';
import { writeItem, type EntityItem } from '../../platform/data/index.js';
import { composerVendorOf, countDownload } from '../../catalog/index.js';
import { dayOf, type UsageQueue } from '../../insights/index.js';
import { logger } from '../../platform/observability/index.js';
import type { DownloadLinks } from '../../platform/storage/index.js';
import type { LicenseItem } from '../licenses/license-view.js';
import { couldBeLicenseKey } from '../licenses/license-key.js';
import { readLicense } from '../operations/license-lookup.js';
import { LICENSE_MESSAGES } from '../operations/messages.js';
import type { ProductCatalog } from '../operations/product-catalog.js';
import { COMPOSER_REALM, PACKAGE_NOT_FOUND } from './composer-messages.js';
import { isComposerVersion } from './composer-versions.js';
import { DOWNLOAD_URL_TTL_SECONDS } from './download.js';
import { type LicenseAccess, licenseAccess, mayReceive } from './license-access.js';
import type { ProductReleases, ReleaseCatalog, ReleaseItem } from './release-catalog.js';

export type ComposerSources = { products: ProductCatalog; releases: ReleaseCatalog; links: DownloadLinks; usage: UsageQueue };
type ComposerDeps = Pick<Deps, 'data' | 'clock'>;

/** The key Composer sends (HTTP Basic: the license key as user name), and the site it names as password, if any. */
export type ComposerCaller = { licenseKey: string | undefined; site?: string };

/** 401 with the challenge Composer answers with its stored credentials (or reports as an authentication failure). */
const unauthorized = (message: string) => new AppError(401, message, undefined, { 'www-authenticate': `Basic realm="${COMPOSER_REALM}"` });

/** Composer's name for a product: `<account's vendor>/<slug>`. */
const packageName = (vendor: string, slug: string) => `${vendor}/${slug}`;

/** Composer's package type for a product type (DECISIONS §24). */
function packageType(productType: string): string {
  if (productType === 'plugin') return 'wordpress-plugin';
  if (productType === 'theme') return 'wordpress-theme';
  return 'library';
}

/**
 * The Composer repository of DECISIONS §24, for the container that builds it: the key in Basic auth decides which
 * packages and versions exist, by the same rules as the versions list (shared/licensing/updates/versions-list.ts):
 * every published release on the license's channels, within updates after expiry; rollouts do not apply to an install
 * its owner asks for. Reads are those of an update check (the license, the product by slug, its cached releases) and
 * the tenant's settings (its vendor name).
 */
export function createComposerRepository(deps: ComposerDeps, sources: ComposerSources) {
  // Read with each request (one small GetItem): a renamed vendor's old name is another account's to take at once.
  const vendorOf = (tenantId: string) => composerVendorOf(deps, tenantId);

  /** The license behind the key, refused with 401 unless it may receive something of its own product. */
  async function keyed(caller: ComposerCaller): Promise<LicenseItem> {
    if (caller.licenseKey === undefined) throw unauthorized('A license key is required as the user name (HTTP Basic auth)');
    const license = couldBeLicenseKey(caller.licenseKey) ? await readLicense(deps, caller.licenseKey) : undefined;
    const owner = license && (await sources.products.byId(license.productId));
    if (!license || !owner || owner.deleted) throw unauthorized(LICENSE_MESSAGES.notFound);
    let access = await licenseAccess(sources.products, license, owner, deps.clock.now());
    if (access.kind === 'none' && access.expired) {
      // What an expired key keeps is the product's setting as it is now (the catalog's copy may be a minute old).
      const current = await deps.data.reads.product.get({ productId: owner.productId });
      access = await licenseAccess(sources.products, license, { productId: owner.productId, updatesAfterExpiry: current?.updatesAfterExpiry }, deps.clock.now());
    }
    if (access.kind === 'none') throw unauthorized(access.reason);
    return license;
  }

  /** The products the license may install from, with its access to each: its own and a bundle's included ones. */
  async function packagesOf(license: LicenseItem): Promise<{ entry: ProductReleases; access: LicenseAccess }[]> {
    const owner = await sources.products.byId(license.productId);
    const candidates = [license.productId, ...(owner?.includes ?? [])];
    const refs = await Promise.all(candidates.map((productId) => sources.products.byId(productId)));
    const entries = await Promise.all(refs.map((ref) => (ref && !ref.deleted && ref.tenantId === license.tenantId ? sources.releases.bySlug(ref.slug) : undefined)));
    const now = deps.clock.now();
    const granted = await Promise.all(
      entries.map(async (entry) => {
        if (!entry || entry.product.productType === 'bundle') return undefined;
        const access = await licenseAccess(sources.products, license, entry.product, now);
        return access.kind === 'none' ? undefined : { entry, access };
      }),
    );
    return granted.filter((found) => found !== undefined);
  }

  /** The package `<vendor>/<slug>` if the key may install from it; anything else (another account's, unknown) is 404. */
  async function packageFor(license: LicenseItem, vendor: string, slug: string) {
    const [own, found] = await Promise.all([vendorOf(license.tenantId), packagesOf(license)]);
    const match = own === vendor ? found.find(({ entry }) => entry.product.slug === slug) : undefined;
    if (!match) throw new NotFoundError(PACKAGE_NOT_FOUND);
    return { ...match, vendor };
  }

  const installable = (access: LicenseAccess, releases: ReleaseItem[]) => releases.filter((release) => mayReceive(access, release) && isComposerVersion(release.version));

  const distUrl = (baseUrl: string, vendor: string, slug: string, releaseId: string) => `${baseUrl}/composer/dist/${vendor}/${slug}/${releaseId}.zip`;

  return {
    /** `packages.json`: where each package's metadata is, and which packages the key may install. */
    async root(caller: ComposerCaller, baseUrl: string) {
      const license = await keyed(caller);
      const [vendor, found] = await Promise.all([vendorOf(license.tenantId), packagesOf(license)]);
      const names = vendor ? found.filter(({ entry, access }) => installable(access, entry.published).length > 0).map(({ entry }) => packageName(vendor, entry.product.slug)) : [];
      return { packages: {}, 'metadata-url': `${baseUrl}/composer/p2/%package%.json`, 'available-packages': names.sort() };
    },

    /** `p2/<vendor>/<slug>.json`: every version the key may install, newest first, with its dist under the same auth. */
    async metadata(caller: ComposerCaller, input: { vendor: string; slug: string; dev: boolean; baseUrl: string }) {
      const license = await keyed(caller);
      const { entry, access, vendor } = await packageFor(license, input.vendor, input.slug);
      const { product } = entry;
      const name = packageName(vendor, product.slug);
      // Every version is tagged: the dev file Composer may ask for holds none.
      const versions = input.dev
        ? []
        : installable(access, entry.published).map((release) => {
            const requiresPhp = release.requiresPhp ?? product.requiresPhp;
            return {
              name,
              version: release.version,
              type: packageType(product.productType),
              ...(product.description && { description: product.description.slice(0, 500) }),
              ...(product.homepage && { homepage: product.homepage }),
              ...(release.releasedAt && { time: release.releasedAt }),
              dist: { type: 'zip', url: distUrl(input.baseUrl, vendor, product.slug, release.releaseId), shasum: release.fileSha1 ?? '' },
              ...(requiresPhp && { require: { php: `>=${requiresPhp}` } }),
            };
          });
      return { packages: { [name]: versions } };
    },

    /**
     * A version's ZIP: counted as a download of the release and, the first time this key installs it, as a sighting
     * in the overview (a create of the key and release's item, only if absent); answered with a short-lived storage URL.
     */
    async dist(caller: ComposerCaller, input: { vendor: string; slug: string; releaseId: string }): Promise<string> {
      const license = await keyed(caller);
      const { entry, access } = await packageFor(license, input.vendor, input.slug);
      const release = entry.published.find((candidate) => candidate.releaseId === input.releaseId);
      if (!release) throw new NotFoundError(PACKAGE_NOT_FOUND);
      if (!mayReceive(access, release)) {
        // On the license's channels but published after it expired: renewing would give it.
        const afterExpiry = access.kind === 'channels' && access.releasedBefore !== undefined && mayReceive({ kind: 'channels', channel: access.channel }, release);
        if (afterExpiry) throw new ForbiddenError(LICENSE_MESSAGES.expired);
        throw new NotFoundError(PACKAGE_NOT_FOUND);
      }
      if (!(await countDownload(deps, release.releaseId))) throw new NotFoundError(PACKAGE_NOT_FOUND);
      // Bookkeeping: a sighting not recorded never costs the customer the install.
      await recordInstall(deps, sources.usage, license, release, caller.site).catch((error: unknown) => logger.warn('Composer install not recorded', { error }));
      return sources.links.presign(release.filePath, release.fileName, DOWNLOAD_URL_TTL_SECONDS);
    },
  };
}

export type ComposerRepository = ReturnType<typeof createComposerRepository>;

/**
 * The first install of a release with a key counts one sighting of the site (the password Composer sends, when it
 * names one; else the license) in the overview. The key and release's item is created only if absent, so Composer's
 * repeated downloads (each `composer install` on a fresh machine) count once.
 */
async function recordInstall(deps: ComposerDeps, usage: UsageQueue, license: LicenseItem, release: ReleaseItem, site: string | undefined): Promise<void> {
  const now = deps.clock.now();
  const item: EntityItem<'composerInstall'> = { licenseKey: license.licenseKey, releaseId: release.releaseId, installedAt: now.toISOString() };
  const first = await writeItem(() => deps.data.entities.composerInstall.create(item).go({ response: 'none' }));
  if (!first.written) return;
  await usage.send({
    kind: 'install',
    productId: release.productId,
    day: dayOf(now),
    version: release.version,
    tenantId: license.tenantId,
    site: site ?? `composer:${license.licenseId}`,
  });
}
