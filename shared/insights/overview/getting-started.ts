import { getProduct, milestonesOf } from '../../catalog/index.js';
import type { Deps } from '../../platform/index.js';

/** A new account's first steps, in the order the dashboard's overview lists them (DECISIONS §22). */
export const GETTING_STARTED_STEPS = ['createProduct', 'uploadRelease', 'connectPlugin', 'connectStripe', 'shareCheckoutLink'] as const;
export type GettingStartedStep = (typeof GETTING_STARTED_STEPS)[number];

export type GettingStarted = {
  steps: { step: GettingStartedStep; done: boolean }[];
  /** The oldest live product, which the steps after the first are about; null before there is one. */
  productId: string | null;
};

/**
 * Which first steps the account has taken, each from its real state: a live product; a published release of one
 * (its `latestVersion`); a product's first activation; a connected payment provider; a checkout a buyer opened.
 * One query of the tenant's products (a tenant has few), one batch of their milestones each, one key lookup.
 */
export async function gettingStarted(deps: Pick<Deps, 'data'>, tenantId: string): Promise<GettingStarted> {
  const [{ data: products }, { data: provider }] = await Promise.all([
    deps.data.entities.product.query.byTenant({ tenantId }).go({ pages: 'all' }),
    deps.data.entities.paymentProvider.get({ tenantId }).go(),
  ]);
  const live = products.filter((product) => !product.deletedAt);
  const ids = live.map((product) => product.productId);
  const [activations, checkouts] = await Promise.all([
    milestonesOf(deps, tenantId, ids, 'firstActivation'),
    milestonesOf(deps, tenantId, ids, 'firstCheckout'),
  ]);
  const done: Record<GettingStartedStep, boolean> = {
    createProduct: live.length > 0,
    uploadRelease: live.some((product) => product.latestVersion !== undefined),
    connectPlugin: activations.length > 0,
    connectStripe: provider !== null,
    shareCheckoutLink: checkouts.length > 0,
  };
  return { steps: GETTING_STARTED_STEPS.map((step) => ({ step, done: done[step] })), productId: live[0]?.productId ?? null };
}

export type FirstActivation = { site: string; licenseId: string | null; activatedAt: string };

/** A product's first site or machine, once one activated (null before); 404 for a product not the tenant's. */
export async function firstActivation(deps: Pick<Deps, 'data' | 'clock'>, tenantId: string, productId: string): Promise<FirstActivation | null> {
  const [first] = await Promise.all([milestonesOf(deps, tenantId, [productId], 'firstActivation').then(([item]) => item), getProduct(deps, tenantId, productId)]);
  return first ? { site: first.site ?? '', licenseId: first.licenseId ?? null, activatedAt: first.at } : null;
}
