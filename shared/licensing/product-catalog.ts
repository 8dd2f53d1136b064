import type { Deps } from '../runtime.js';
import { TtlCache } from './ttl-cache.js';

/** What license operations show and check of a product. */
export type ProductRef = { productId: string; tenantId: string; name: string; slug: string; deleted: boolean };

/** The spec's validation cache lifetime (SERVICE-SPEC §8): the bound on seeing another container's product write. */
export const PRODUCT_CACHE_TTL_MS = 60_000;

/**
 * One cache per container (module scope), shared by every surface the container serves: products by id
 * and slug, so a warm edge validate costs only the read of its license item. A product written in this
 * container is forgotten at once (`forgetProduct`); one renamed or deleted by another container is seen
 * within PRODUCT_CACHE_TTL_MS. Lookups that find nothing are not cached.
 */
const byId = new TtlCache<ProductRef>(PRODUCT_CACHE_TTL_MS);
const idBySlug = new TtlCache<string>(PRODUCT_CACHE_TTL_MS);

/** Call after changing or deleting a product (name, slug, deletion) so this container's next answer sees it. */
export function forgetProduct(productId: string): void {
  byId.delete(productId);
}

export type ProductCatalog = ReturnType<typeof createProductCatalog>;

export function createProductCatalog(deps: Pick<Deps, 'data'>) {
  const { product, productSlug, productPublicKey } = deps.data.entities;

  const productById = (productId: string) =>
    byId.get(productId, async () => {
      const { data } = await product.get({ productId }).go();
      if (!data) return undefined;
      return { productId, tenantId: data.tenantId, name: data.name, slug: data.slug, deleted: Boolean(data.deletedAt) };
    });

  return {
    byId: productById,
    async bySlug(slug: string): Promise<ProductRef | undefined> {
      const productId = await idBySlug.get(slug, async () => (await productSlug.get({ slug }).go()).data?.productId);
      const found = productId ? await productById(productId) : undefined;
      // A slug given up by a rename may still be cached: it names the product only while it is its slug.
      return found?.slug === slug ? found : undefined;
    },
    /**
     * A public key is looked up on every call (strongly consistent, beside the license read): a replaced
     * key must stop identifying its product at once.
     */
    async byPublicKey(publicKey: string): Promise<ProductRef | undefined> {
      const { data } = await productPublicKey.get({ publicKey }).go({ consistent: true });
      return data ? productById(data.productId) : undefined;
    },
  };
}
