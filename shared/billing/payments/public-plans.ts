import type { EntityItem } from '../../platform/data/index.js';
import { type Deps, hasPublicKeyShape, NotFoundError } from '../../platform/index.js';
import { checkoutUrl, grantedFeatures, PLAN_NOT_FOUND, planIdOf, publicPlanId } from '../../catalog/index.js';
import { LICENSE_MESSAGES, type ProductCatalog, type ProductRef } from '../../licensing/index.js';


/** The live product a public key names; a key of another shape, unknown, replaced or of a deleted product is 404. */
export async function productOfPublicKey(catalog: ProductCatalog, publicKey: string): Promise<ProductRef> {
  const product = hasPublicKeyShape(publicKey) ? await catalog.byPublicKey(publicKey) : undefined;
  if (!product || product.deleted) throw new NotFoundError(LICENSE_MESSAGES.invalidPublicKey);
  return product;
}

/** A plan a buyer may see and buy: active and public. */
export const isOnSale = (plan: EntityItem<'plan'>) => plan.isActive && plan.isPublic;

/** The product's plans (few), in creation order: one query of the product's index, which needs no plan-id key. */
async function plansOf(deps: Pick<Deps, 'data'>, productId: string) {
  const { data } = await deps.data.entities.plan.query.byProduct({ productId }).go({ pages: 'all' });
  return data;
}

/** The product's plans on sale (active and public), in creation order. */
export async function plansOnSale(deps: Pick<Deps, 'data'>, productId: string) {
  return (await plansOf(deps, productId)).filter(isOnSale);
}

/**
 * The product's plans on sale, in creation order, each with the link that starts its checkout and the features it
 * grants (DECISIONS §23: key and name, for a pricing table).
 */
export async function listPublicPlans(deps: Pick<Deps, 'data'>, catalog: ProductCatalog, publicKey: string, baseUrl: string) {
  const product = await productOfPublicKey(catalog, publicKey);
  const featureNames = new Map(product.features.map((feature) => [feature.key, feature.name]));
  return (await plansOnSale(deps, product.productId)).map((plan) => ({
    id: publicPlanId(plan.planId),
    name: plan.name,
    slug: plan.slug,
    price: plan.price,
    currency: plan.currency,
    billingCycle: plan.billingCycle,
    siteLimit: plan.siteLimit,
    features: grantedFeatures(product, plan.features).map((key) => ({ key, name: featureNames.get(key)! })),
    checkoutUrl: checkoutUrl(baseUrl, plan.planId, publicKey),
  }));
}

/**
 * A plan on sale of this product, by slug or by id, found among the product's plans, so another product's plan
 * is simply not there; an inactive or private plan is not found either.
 */
export async function planOnSale(deps: Pick<Deps, 'data'>, productId: string, plan: { slug: string } | { id: string }): Promise<EntityItem<'plan'>> {
  const planId = 'id' in plan ? planIdOf(plan.id) : undefined;
  const slug = 'slug' in plan ? plan.slug : undefined;
  const found = (await plansOf(deps, productId)).find((item) => item.planId === planId || item.slug === slug);
  if (!found || !isOnSale(found)) throw new NotFoundError(PLAN_NOT_FOUND);
  return found;
}
