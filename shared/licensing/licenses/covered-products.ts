import type { EntityItem } from '../../platform/data/index.js';
import type { Deps } from '../../platform/index.js';
import type { ProductSummary } from './license-view.js';

const ATTRIBUTES = ['productId', 'tenantId', 'name', 'slug', 'productType', 'includes', 'deletedAt'] as const;
type ProductFields = Pick<EntityItem<'product'>, (typeof ATTRIBUTES)[number]>;

async function productItems(deps: Pick<Deps, 'data'>, productIds: Iterable<string>): Promise<Map<string, ProductFields>> {
  const ids = [...new Set(productIds)];
  if (ids.length === 0) return new Map();
  const product = deps.data.entities.product;
  const { data, unprocessed } = await product.get(ids.map((productId) => ({ productId }))).go({ attributes: [...ATTRIBUTES] });
  const found = new Map<string, ProductFields>(data.map((item) => [item.productId, item]));
  // A batch may leave keys unprocessed under load; those few are read one by one.
  for (const { productId } of unprocessed) {
    const { data: item } = await product.get({ productId }).go({ attributes: [...ATTRIBUTES] });
    if (item) found.set(productId, item);
  }
  return found;
}

/**
 * For each product a license may be of, the live products such a license covers (DECISIONS §23, the rule of
 * shared/licensing/operations/coverage.ts, read fresh for the management and portal views): the product itself, or a
 * bundle's included products of its account, in the bundle's order. A deleted product covers nothing. Two batch reads.
 */
export async function coveredProducts(deps: Pick<Deps, 'data'>, productIds: Iterable<string>): Promise<Map<string, ProductSummary[]>> {
  const owners = await productItems(deps, productIds);
  const included = await productItems(deps, [...owners.values()].flatMap((owner) => (owner.productType === 'bundle' ? (owner.includes ?? []) : [])));
  const summary = (item: ProductFields): ProductSummary => ({ id: item.productId, name: item.name, slug: item.slug });
  const covered = new Map<string, ProductSummary[]>();
  for (const [productId, owner] of owners) {
    if (owner.deletedAt) covered.set(productId, []);
    else if (owner.productType !== 'bundle') covered.set(productId, [summary(owner)]);
    else {
      const live = (owner.includes ?? []).map((id) => included.get(id)).filter((item): item is ProductFields => item !== undefined && !item.deletedAt && item.tenantId === owner.tenantId);
      covered.set(productId, live.map(summary));
    }
  }
  return covered;
}
