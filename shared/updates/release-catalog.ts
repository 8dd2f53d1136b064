import type { EntityItem } from '../data/service.js';
import { TtlCache } from '../licensing/ttl-cache.js';
import { publishedReleaseItems } from '../releases/releases.js';
import type { Deps } from '../runtime.js';

export type ProductItem = EntityItem<'product'>;
export type ReleaseItem = EntityItem<'release'>;

/** A product as the update check shows it, with its published releases, newest version first. */
export type ProductReleases = { product: ProductItem; published: ReleaseItem[] };

/** SERVICE-SPEC §8: the update check's product and latest-release data live 5 minutes per slug. */
export const UPDATE_CACHE_TTL_MS = 5 * 60_000;

/**
 * One cache per container (module scope): a live product (by slug) with its published releases.
 * Releases and products written in this container are forgotten at once (`forgetProductReleases`);
 * writes through another container are seen within UPDATE_CACHE_TTL_MS. A missing or deleted product is
 * not cached, so a new product is seen at once.
 */
const bySlug = new TtlCache<ProductReleases>(UPDATE_CACHE_TTL_MS);
/** The slugs cached for each product, so a product's entries can be forgotten by id. */
const slugsOfProduct = new Map<string, Set<string>>();

/** Call after writing a product or one of its releases, so this container's next update check sees it. */
export function forgetProductReleases(productId: string): void {
  for (const slug of slugsOfProduct.get(productId) ?? []) bySlug.delete(slug);
  slugsOfProduct.delete(productId);
}

export type ReleaseCatalog = ReturnType<typeof createReleaseCatalog>;

export function createReleaseCatalog(deps: Pick<Deps, 'data'>) {
  const { product, productSlug } = deps.data.entities;
  return {
    bySlug: (slug: string) =>
      bySlug.get(slug, async () => {
        const { data: ref } = await productSlug.get({ slug }).go();
        if (!ref) return undefined;
        const [{ data: item }, published] = await Promise.all([
          product.get({ productId: ref.productId }).go(),
          publishedReleaseItems(deps, ref.productId),
        ]);
        if (!item || item.deletedAt || item.slug !== slug) return undefined;
        slugsOfProduct.set(ref.productId, (slugsOfProduct.get(ref.productId) ?? new Set()).add(slug));
        return { product: item, published };
      }),
  };
}
