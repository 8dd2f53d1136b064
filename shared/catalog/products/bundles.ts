import { BadRequestError, type Deps } from '../../platform/index.js';

/** How many products a bundle includes (DECISIONS §23). */
export const MIN_BUNDLE_PRODUCTS = 2;
export const MAX_BUNDLE_PRODUCTS = 100;

export const BUNDLE_MESSAGES = {
  count: `A bundle includes ${MIN_BUNDLE_PRODUCTS} to ${MAX_BUNDLE_PRODUCTS} products`,
  notBundle: 'includes is only for a product of type bundle',
  itself: 'A bundle cannot include itself',
  bundle: 'A bundle cannot include another bundle',
  foreign: (id: string) => `includes: ${id} is not a product of this account`,
} as const;

/**
 * What a product of `productType` may include, checked: a bundle names 2–100 live products of its own account (once
 * each, in the order given), none of them itself or a bundle; any other product includes nothing. Reads each product
 * by key (a management write, not the edge). `undefined`: nothing to store.
 */
export async function checkedIncludes(
  deps: Pick<Deps, 'data'>,
  bundle: { tenantId: string; productId?: string; productType: string },
  includes: readonly string[] | undefined,
): Promise<string[] | undefined> {
  if (bundle.productType !== 'bundle') {
    if (includes && includes.length > 0) throw new BadRequestError(BUNDLE_MESSAGES.notBundle);
    return undefined;
  }
  const ids = [...new Set(includes ?? [])];
  if (ids.length < MIN_BUNDLE_PRODUCTS || ids.length > MAX_BUNDLE_PRODUCTS) throw new BadRequestError(BUNDLE_MESSAGES.count);
  if (bundle.productId !== undefined && ids.includes(bundle.productId)) throw new BadRequestError(BUNDLE_MESSAGES.itself);
  const products = await Promise.all(ids.map(async (productId) => (await deps.data.entities.product.get({ productId }).go({ consistent: true })).data));
  products.forEach((product, index) => {
    if (!product || product.tenantId !== bundle.tenantId || product.deletedAt) throw new BadRequestError(BUNDLE_MESSAGES.foreign(ids[index]!));
    if (product.productType === 'bundle') throw new BadRequestError(BUNDLE_MESSAGES.bundle);
  });
  return ids;
}
