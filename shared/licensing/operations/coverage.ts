import { LICENSE_MESSAGES } from './messages.js';
import type { ProductCatalog, ProductRef } from './product-catalog.js';

type CoveringLicense = { productId: string; tenantId: string };

/** A product of the license's account that is not deleted. */
export const isLiveProductOf = (product: ProductRef | undefined, tenantId: string): product is ProductRef =>
  product !== undefined && !product.deleted && product.tenantId === tenantId;

/** The live products a bundle includes (DECISIONS §23), in its order: a product deleted meanwhile drops out. From the cached catalog. */
export async function includedProducts(catalog: ProductCatalog, bundle: ProductRef): Promise<ProductRef[]> {
  const products = await Promise.all((bundle.includes ?? []).map((productId) => catalog.byId(productId)));
  return products.filter((product) => isLiveProductOf(product, bundle.tenantId));
}

/**
 * Whether a license covers a product, the one rule every surface asks (DECISIONS §23): its own product, or, for a
 * bundle's license, a live product the live bundle includes. `undefined` when covered, else the refusal: `License does
 * not cover this product` for a bundle's license, `License does not belong to this product` for any other. Reads only
 * the cached catalog, so a warm call costs no request; a product deleted or dropped from the bundle stops being
 * covered within the catalog's lifetime (60 s).
 */
export async function coverageProblem(catalog: ProductCatalog, license: CoveringLicense, productId: string): Promise<string | undefined> {
  if (license.productId === productId) return undefined;
  const owner = await catalog.byId(license.productId);
  if (!owner?.includes) return LICENSE_MESSAGES.wrongProduct;
  if (!isLiveProductOf(owner, license.tenantId) || !owner.includes.includes(productId)) return LICENSE_MESSAGES.notCovered;
  return isLiveProductOf(await catalog.byId(productId), license.tenantId) ? undefined : LICENSE_MESSAGES.notCovered;
}
