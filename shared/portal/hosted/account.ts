import { BadRequestError, NotFoundError } from '../../platform/index.js';
import { KEY_REFUSED, type PaymentDeps, plansOnSale, providerFailure, providerSecretKey, SUBSCRIPTION_NOT_FOUND, toSubscription } from '../../billing/index.js';
import { deactivateActivationById, LICENSE_MESSAGES, productSummaries, statusAt, toActivation } from '../../licensing/index.js';
import { customerIdOf, licensesOf, type PortalDataDeps, type PortalScope } from '../customer-scope.js';
import { NO_PROVIDER } from '../cancel-subscription.js';
import { downloadsWithHistory } from '../portal-downloads.js';
import { portalInvoices } from '../portal-reads.js';
import type { LinkSecret } from '../link-secret.js';

/** A license as the hosted portal shows it: its product and plan, its seats, and its active sites and machines. */
async function licensesWithSites(deps: PortalDataDeps, scope: PortalScope) {
  const licenses = await licensesOf(deps, scope);
  const planIds = [...new Set(licenses.flatMap((license) => (license.planId ? [license.planId] : [])))];
  const [products, plans, activations] = await Promise.all([
    productSummaries(deps, licenses.map((license) => license.productId)),
    Promise.all(planIds.map((planId) => deps.data.entities.plan.get({ planId }).go({ attributes: ['planId', 'name'] }).then(({ data }) => data))),
    Promise.all(licenses.map((license) => deps.data.entities.activation.query.byLicense({ licenseId: license.licenseId }).go({ pages: 'all', order: 'desc' }))),
  ]);
  const planNames = new Map(plans.flatMap((plan) => (plan ? [[plan.planId, plan.name] as const] : [])));
  const now = deps.clock.now();
  return licenses.map((license, index) => ({
    id: license.licenseId,
    licenseKey: license.licenseKey,
    productName: products.get(license.productId)?.name ?? null,
    planName: (license.planId && planNames.get(license.planId)) || null,
    status: statusAt(license, now),
    expiresAt: license.expiresAt ?? null,
    seats: license.seats,
    seatsUsed: license.activatedCount,
    activations: activations[index]!.data.filter((activation) => activation.status === 'active').map(toActivation),
  }));
}

/** A subscription with the plans it may move to: the other active public plans of its product. */
async function subscriptionsWithPlans(deps: PortalDataDeps, customerId: string | undefined) {
  if (!customerId) return [];
  const { data } = await deps.data.entities.subscription.query.byCustomer({ customerId }).go({ order: 'desc', pages: 'all' });
  const onSale = new Map<string, Awaited<ReturnType<typeof plansOnSale>>>();
  for (const productId of new Set(data.flatMap((item) => (item.productId ? [item.productId] : [])))) onSale.set(productId, await plansOnSale(deps, productId));
  return data.map((item) => ({
    ...toSubscription(item),
    billedAtProvider: Boolean(item.providerSubscriptionId),
    otherPlans: (onSale.get(item.productId ?? '') ?? [])
      .filter((plan) => plan.planId !== item.planId && plan.billingCycle !== 'lifetime')
      .map((plan) => ({ id: plan.planId, name: plan.name, price: plan.price, currency: plan.currency, billingCycle: plan.billingCycle, siteLimit: plan.siteLimit })),
  }));
}

/** How many earlier versions of each download the page offers to roll back to. */
const EARLIER_VERSIONS = 5;

/** Everything the hosted portal shows one customer (DECISIONS §25), each part read by key. */
export async function portalAccount(deps: PortalDataDeps, secret: LinkSecret, scope: PortalScope, baseUrl: string) {
  const [licenses, downloads, invoices, subscriptions] = await Promise.all([
    licensesWithSites(deps, scope),
    downloadsWithHistory(deps, secret, scope, baseUrl, EARLIER_VERSIONS),
    portalInvoices(deps, scope),
    customerIdOf(deps, scope).then((customerId) => subscriptionsWithPlans(deps, customerId)),
  ]);
  return { email: scope.email, licenses, downloads, invoices, subscriptions };
}
export type PortalAccount = Awaited<ReturnType<typeof portalAccount>>;

/**
 * Deactivates a site or machine of one of the customer's own licenses, as the vendor's deactivate does; an activation
 * of another customer or vendor is 404, as an unknown one.
 */
export async function deactivatePortalActivation(deps: PortalDataDeps, scope: PortalScope, activationId: string) {
  const [{ data: activation }, licenses] = await Promise.all([
    deps.data.entities.activation.get({ activationId }).go({ consistent: true }),
    licensesOf(deps, scope),
  ]);
  const owned = activation && activation.tenantId === scope.tenantId && licenses.some((license) => license.licenseId === activation.licenseId);
  if (!owned) throw new NotFoundError(LICENSE_MESSAGES.activationNotFound);
  return deactivateActivationById(deps, scope.tenantId, activationId);
}

/**
 * A Stripe billing-portal session for the customer of one of their subscriptions (to update the card), returning to
 * `returnUrl`; its URL. The Stripe customer is the subscription's own at Stripe.
 */
export async function billingPortalUrl(deps: PortalDataDeps & PaymentDeps, scope: PortalScope, subscriptionId: string, returnUrl: string): Promise<string> {
  const [customerId, { data: item }] = await Promise.all([
    customerIdOf(deps, scope),
    deps.data.entities.subscription.get({ subscriptionId }).go({ consistent: true }),
  ]);
  if (!item || !customerId || item.tenantId !== scope.tenantId || item.customerId !== customerId) throw new NotFoundError(SUBSCRIPTION_NOT_FOUND);
  if (!item.providerSubscriptionId) throw new BadRequestError('Subscription is not billed through the payment provider');
  const secretKey = await providerSecretKey(deps, scope.tenantId);
  if (!secretKey) throw new BadRequestError(NO_PROVIDER);
  const stripe = await deps.payments.stripe(secretKey);
  try {
    const subscription = await stripe.subscriptions.retrieve(item.providerSubscriptionId);
    const customer = typeof subscription.customer === 'string' ? subscription.customer : subscription.customer.id;
    return (await stripe.billingPortal.sessions.create({ customer, return_url: returnUrl })).url;
  } catch (error) {
    throw providerFailure(error, KEY_REFUSED);
  }
}
