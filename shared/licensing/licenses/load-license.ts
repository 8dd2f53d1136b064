import { type Deps, NotFoundError } from '../../platform/index.js';
import type { LicenseItem, ProductSummary } from './license-view.js';

export type LicenseDeps = Pick<Deps, 'data' | 'clock'>;

export const LICENSE_NOT_FOUND = 'License not found';

/**
 * A tenant's license by its stable id: the ref gives the current key, the key gives the item
 * (strongly consistent, so a write that follows conditions on what was just read).
 * Another tenant's id, or a key regenerated between the two reads, is not found.
 */
export async function loadLicense(deps: LicenseDeps, tenantId: string, licenseId: string): Promise<LicenseItem> {
  const { data: ref } = await deps.data.entities.licenseRef.get({ licenseId }).go({ consistent: true });
  if (!ref || ref.tenantId !== tenantId) throw new NotFoundError(LICENSE_NOT_FOUND);
  const { data: license } = await deps.data.entities.license.get({ licenseKey: ref.licenseKey }).go({ consistent: true });
  if (!license || license.licenseId !== licenseId) throw new NotFoundError(LICENSE_NOT_FOUND);
  return license;
}

/** `{id, name, slug}` of each product, in one batch read (deleted products included: licenses outlive them). */
export async function productSummaries(deps: LicenseDeps, productIds: Iterable<string>): Promise<Map<string, ProductSummary>> {
  const ids = [...new Set(productIds)];
  if (ids.length === 0) return new Map();
  const product = deps.data.entities.product;
  const { data } = await product.get(ids.map((productId) => ({ productId }))).go({ attributes: ['productId', 'name', 'slug'] });
  const found = new Map(data.map((p) => [p.productId, { id: p.productId, name: p.name, slug: p.slug }]));
  // A batch may leave keys unprocessed under load; those few are read one by one.
  for (const productId of ids.filter((id) => !found.has(id))) {
    const { data: p } = await product.get({ productId }).go({ attributes: ['productId', 'name', 'slug'] });
    if (p) found.set(productId, { id: p.productId, name: p.name, slug: p.slug });
  }
  return found;
}

export async function productSummary(deps: LicenseDeps, productId: string): Promise<ProductSummary> {
  const summary = (await productSummaries(deps, [productId])).get(productId);
  if (!summary) throw new Error(`Product ${productId} of a license is missing`);
  return summary;
}
