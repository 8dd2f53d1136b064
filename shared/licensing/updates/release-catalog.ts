import type { EntityItem } from '../../platform/data/index.js';
import { publishedReleaseItems } from '../../catalog/index.js';
import { type Deps, TtlCache } from '../../platform/index.js';

export type ProductItem = EntityItem<'product'>;
export type ReleaseItem = EntityItem<'release'>;
type ReleaseReadmeItem = EntityItem<'releaseReadme'>;

/** A product as the update check shows it, with its published releases, newest version first. */
export type ProductReleases = { product: ProductItem; published: ReleaseItem[] };

/** SERVICE-SPEC §8: the update check's product and latest-release data live at most 5 minutes. */
const UPDATE_CACHE_TTL_MS = 5 * 60_000;
const MAX_CACHED_PRODUCTS = 2_000;

export type ReleaseCatalog = ReturnType<typeof createReleaseCatalog>;

/**
 * Products with their published releases for the update check, for the container that builds it.
 * Every check reads the product item (one small read beside the license's), so a deleted or edited
 * product is answered as it is now; the product's releases, the costly part, are cached under the
 * product's `releasesChangedAt` stamp, which every release write moves, so a new release is offered at
 * once from every container. Slugs are cached as they rarely change; a stale one is read again.
 */
export function createReleaseCatalog(deps: Pick<Deps, 'data'>) {
  // Entities are named when used, not here: a container builds only those its requests need (shared/platform/data/service.ts).
  const { entities } = deps.data;
  const idBySlug = new TtlCache<string>(UPDATE_CACHE_TTL_MS, MAX_CACHED_PRODUCTS);
  const releasesByStamp = new TtlCache<ReleaseItem[]>(UPDATE_CACHE_TTL_MS, MAX_CACHED_PRODUCTS);
  const readmes = new TtlCache<ReleaseReadmeItem>(UPDATE_CACHE_TTL_MS, MAX_CACHED_PRODUCTS);

  const liveProduct = async (productId: string, slug: string) => {
    const { data } = await entities.product.get({ productId }).go();
    return data && !data.deletedAt && data.slug === slug ? data : undefined;
  };

  /**
   * Published releases as the index shows them. Kept only once they agree with the product's
   * `latestVersion`: the index can lag a release write by a moment, and a lagging list must not be cached.
   */
  const releasesOf = async (item: ProductItem) =>
    (await releasesByStamp.get(
      `${item.productId}#${item.releasesChangedAt ?? ''}`,
      () => publishedReleaseItems(deps, item.productId),
      (published) => published[0]?.version === item.latestVersion,
    ))!;

  return {
    async bySlug(slug: string): Promise<ProductReleases | undefined> {
      const cachedId = await idBySlug.get(slug, async () => (await entities.productSlug.get({ slug }).go()).data?.productId);
      let item = cachedId ? await liveProduct(cachedId, slug) : undefined;
      if (cachedId && !item) {
        // Renamed or deleted since the slug was cached: the slug may name another product now.
        idBySlug.delete(slug);
        const { data: ref } = await entities.productSlug.get({ slug }).go();
        item = ref && ref.productId !== cachedId ? await liveProduct(ref.productId, slug) : undefined;
      }
      if (!item) return undefined;
      return { product: item, published: await releasesOf(item) };
    },
    /**
     * The readme of a release that has one (`hasReadme`), read once per container: a new file, the only change to a
     * readme, moves the product's stamp, under which it is cached.
     */
    async readmeOf(product: ProductItem, release: ReleaseItem): Promise<ReleaseReadmeItem | undefined> {
      if (!release.hasReadme) return undefined;
      return readmes.get(`${release.releaseId}#${product.releasesChangedAt ?? ''}`, async () => {
        return (await entities.releaseReadme.get({ releaseId: release.releaseId }).go()).data ?? undefined;
      });
    },
  };
}
