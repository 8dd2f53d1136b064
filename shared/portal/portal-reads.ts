import { toPayment, toSubscription } from '../billing/index.js';
import { coveredProducts, licenseProblem, productSummaries, statusAt } from '../licensing/index.js';
import { customerIdOf, licensesOf, type PortalDataDeps, type PortalScope } from './customer-scope.js';

/** Subscription states that still give access (Stripe's names, as the payment webhook records them). */
const LIVE_SUBSCRIPTION = new Set(['active', 'trialing', 'past_due']);

async function subscriptionItems(deps: PortalDataDeps, customerId: string | undefined) {
  if (!customerId) return [];
  const { data } = await deps.data.entities.subscription.query.byCustomer({ customerId }).go({ order: 'desc', pages: 'all' });
  return data;
}

/** Counts of one customer; an e-mail with no customer has zeros. An active license is one usable now (not past `expiresAt`). */
export async function portalOverview(deps: PortalDataDeps, scope: PortalScope) {
  const [licenses, subscriptions] = await Promise.all([
    licensesOf(deps, scope),
    customerIdOf(deps, scope).then((customerId) => subscriptionItems(deps, customerId)),
  ]);
  const now = deps.clock.now();
  return {
    email: scope.email,
    activeLicenses: licenses.filter((license) => !licenseProblem(license, now)).length,
    totalLicenses: licenses.length,
    activeSubscriptions: subscriptions.filter((subscription) => LIVE_SUBSCRIPTION.has(subscription.status)).length,
  };
}

/**
 * Newest first; `siteCount` is the license's count of active production activations (the seats taken) and
 * `stagingCount` its active staging sites, both kept on the license by every activation and deactivation. `products`:
 * what the key is for, its product or a bundle's included products (DECISIONS §23), each by name and slug.
 */
export async function portalLicenses(deps: PortalDataDeps, scope: PortalScope) {
  const licenses = await licensesOf(deps, scope);
  const productIds = licenses.map((license) => license.productId);
  const [products, covered] = await Promise.all([productSummaries(deps, productIds), coveredProducts(deps, productIds)]);
  return licenses.map((license) => {
    const product = products.get(license.productId);
    return {
      id: license.licenseId,
      licenseKey: license.licenseKey,
      status: statusAt(license, deps.clock.now()),
      seats: license.seats,
      siteCount: license.activatedCount,
      stagingCount: license.stagingCount ?? 0,
      expiresAt: license.expiresAt ?? null,
      createdAt: license.createdAt,
      productName: product?.name ?? null,
      productSlug: product?.slug ?? null,
      products: (covered.get(license.productId) ?? []).map(({ name, slug }) => ({ name, slug })),
    };
  });
}

/** The customer's payments (SERVICE-SPEC §2), newest first. */
export async function portalInvoices(deps: PortalDataDeps, scope: PortalScope) {
  const customerId = await customerIdOf(deps, scope);
  if (!customerId) return [];
  const { data } = await deps.data.entities.payment.query.byCustomer({ customerId }).go({ order: 'desc', pages: 'all' });
  return data.map(toPayment);
}

/** The customer's subscriptions (SERVICE-SPEC §2), newest first. */
export async function portalSubscriptions(deps: PortalDataDeps, scope: PortalScope) {
  return (await subscriptionItems(deps, await customerIdOf(deps, scope))).map(toSubscription);
}
