import { forgetProduct } from '../licensing/product-catalog.js';
import { forgetProductReleases } from '../updates/release-catalog.js';

/**
 * Drops what this container caches of a product (the edge's product cache, the update check's releases)
 * after a write to it or its releases here. Other containers see the write within their cache lifetimes.
 */
export function forgetCachedProduct(productId: string): void {
  forgetProduct(productId);
  forgetProductReleases(productId);
}
