import type { EntityItem } from '../../platform/data/index.js';
import type { Deps } from '../../platform/index.js';

/**
 * The feedback a customer sent: with their e-mail as its contact, or through one of their licenses. Feedback lives in
 * its product's partition, so this is one query per product of the tenant, over what the analytics retention keeps.
 */
export async function feedbackOf(
  deps: Pick<Deps, 'data'>,
  tenantId: string,
  customer: { email: string; licenseIds: ReadonlySet<string> },
): Promise<EntityItem<'feedback'>[]> {
  const { product, feedback } = deps.data.entities;
  const { data: products } = await product.query.byTenant({ tenantId }).go({ pages: 'all', attributes: ['productId'] });
  const perProduct = await Promise.all(
    products.map(async ({ productId }) => (await feedback.query.byProduct({ productId }).go({ order: 'desc', pages: 'all' })).data),
  );
  return perProduct.flat().filter((item) => item.email === customer.email || (item.licenseId !== undefined && customer.licenseIds.has(item.licenseId)));
}
