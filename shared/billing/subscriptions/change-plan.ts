import type Stripe from 'stripe';
import { toSubscription } from '../billing-views.js';
import { auditTakingBack } from '../../identity/index.js';
import { type EntityItem, transact, type TransactionEntities } from '../../platform/data/index.js';
import { BadRequestError, ConflictError, type Deps, NotFoundError, PaymentRequiredError } from '../../platform/index.js';
import { type LicenseItem, loadLicense, productSummary } from '../../licensing/index.js';
import type { PaymentDeps } from '../payments/payment-deps.js';
import { providerSecretKey } from '../payments/payment-provider.js';
import { planPrice } from '../payments/plan-products.js';
import { KEY_REFUSED, providerFailure } from '../payments/provider-errors.js';
import { loadProduct } from '../../catalog/index.js';
import { planChangeParams, subscriptionItemId } from '../commerce/lifecycle-mapping.js';
import { soldPlanMetadata } from '../commerce/sold-plan.js';
import type { SubscriptionItem } from '../commerce/subscription-records.js';
import { onPlan, planChangeItems } from './plan-change-items.js';
import { planChangeTiming, tooManySites } from './plan-change-rules.js';

type ChangeDeps = Pick<Deps, 'data' | 'clock'> & PaymentDeps;
type PlanItem = EntityItem<'plan'>;

export const SUBSCRIPTION_NOT_FOUND = 'Subscription not found';
export const PLAN_NOT_FOUND = 'Plan not found';
export const NOT_A_PLAN_OF_THE_PRODUCT = "planId must be a recurring plan of the subscription's product";
export const ALREADY_ON_PLAN = 'The subscription is already on this plan';
export const SUBSCRIPTION_ENDED = 'The subscription has ended';
export const NOT_AT_PROVIDER = 'Subscription is not billed through the payment provider';
export const NO_PROVIDER = 'No payment provider is connected';
export const PAYMENT_FAILED = 'Payment for the plan change failed';
const CHANGED_CONCURRENTLY = 'The subscription was changed concurrently; retry';

/** Who asks: the vendor (any of its subscriptions), or a customer through the portal (theirs only). */
export type PlanChangeRequest = { tenantId: string; subscriptionId: string; planId: string; customerId?: string };

/** A downgrade waiting for the period's end: its plan, when it applies, and the seats it holds new activations to. */
type PendingChange = { planId: string; effectiveAt: string; seats: number | undefined };

/** What a change works on: the subscription, its license (if still there), its product's name, and the vendor's Stripe client. */
type Change = { subscription: SubscriptionItem; license: LicenseItem | undefined; productName: string; stripe: Stripe };

/**
 * Moves a subscription to another recurring plan of its product (DECISIONS §15, §20), at Stripe first, on the vendor's
 * account. The plan must be on sale: active, and public when the customer asks through the portal (404 otherwise).
 * An upgrade (or any change under `prorateAll` / `none`) is sent with `payment_behavior: pending_if_incomplete` and
 * applies here once Stripe has applied it, with the license's seats and plan; one Stripe holds unpaid is 402 and
 * nothing changes (Stripe applies it if it is paid later, and `customer.subscription.updated` brings it here). A
 * downgrade is recorded as pending, with the seats that cap the license's new activations until it applies
 * (`pendingSeats`), and Stripe is given the new price without proration, so it bills it from the next period;
 * `customer.subscription.updated` of the new period applies it (shared/billing/commerce/plan-change-sync.ts). The pending
 * change is written before Stripe is called, so Stripe's event, however early, finds it; a Stripe failure takes it back.
 * A change while a downgrade is pending replaces it: at Stripe the pending price is first put back to the current
 * plan's, so an upgrade is charged from the plan paid for; asking for the current plan takes the pending one back.
 * Answers the subscription and when the change takes effect.
 */
export async function changePlan(deps: ChangeDeps, request: PlanChangeRequest) {
  const subscription = await loadSubscription(deps, request);
  const [license, product, plan] = await Promise.all([
    subscription.licenseId ? loadLicense(deps, request.tenantId, subscription.licenseId).catch(() => undefined) : undefined,
    loadProduct(deps, request.tenantId, subscription.productId!),
    loadTargetPlan(deps, request.tenantId, request.planId),
  ]);
  if (plan.planId === subscription.planId) {
    if (!subscription.pendingPlanId) throw new BadRequestError(ALREADY_ON_PLAN);
    return keepPlan(deps, { subscription, license, productName: product.name, stripe: await stripeOf(deps, request.tenantId) }, plan);
  }
  if (!plan.isActive || (request.customerId !== undefined && !plan.isPublic)) throw new NotFoundError(PLAN_NOT_FOUND);
  if (plan.productId !== subscription.productId || plan.billingCycle === 'lifetime') throw new BadRequestError(NOT_A_PLAN_OF_THE_PRODUCT);
  if (plan.planId === subscription.pendingPlanId) return { subscription: toSubscription(subscription), effectiveAt: subscription.pendingPlanEffectiveAt! };
  if (license && license.activatedCount > plan.siteLimit) throw new ConflictError(tooManySites(license.activatedCount, plan.siteLimit));
  const current = { billingCycle: (subscription.billingCycle ?? 'yearly') as PlanItem['billingCycle'], price: subscription.price ?? 0 };
  const timing = planChangeTiming(product.planChangeProration, current, plan);

  const change: Change = { subscription, license, productName: product.name, stripe: await stripeOf(deps, request.tenantId) };
  const replacesPending = timing.at === 'now' && subscription.pendingPlanId !== undefined;
  const currentPlan = replacesPending ? (await deps.data.entities.plan.get({ planId: subscription.planId! }).go()).data ?? undefined : undefined;
  const [stripeSubscription, price, currentPrice] = await Promise.all([
    change.stripe.subscriptions.retrieve(subscription.providerSubscriptionId!),
    planPrice(change.stripe, plan, product.name),
    replacesPending ? planPrice(change.stripe, paidTerms(subscription, currentPlan), product.name) : undefined,
  ]).catch((error: unknown) => Promise.reject(providerFailure(error, KEY_REFUSED)));
  const itemId = subscriptionItemId(stripeSubscription);
  if (!itemId) throw new BadRequestError(NOT_AT_PROVIDER);
  const params = planChangeParams({ itemId, priceId: price.id, plan, currentCycle: subscription.billingCycle, timing, periodEnd: subscription.currentPeriodEnd });

  if (timing.at === 'periodEnd') {
    const effectiveAt = subscription.currentPeriodEnd ?? deps.clock.now().toISOString();
    const pending = await writePending(deps, subscription, license, { planId: plan.planId, effectiveAt, seats: plan.siteLimit });
    try {
      await updateAtStripe(change, params);
    } catch (error) {
      await takeBack(deps, pending, license, pendingOf(subscription, license));
      throw error;
    }
    return { subscription: toSubscription(pending), effectiveAt };
  }

  // Stripe prorates from the price on the item, which is the pending downgrade's: the current plan's goes back first,
  // or the buyer would be credited for the cheaper plan and pay again for what the current one already paid. Stripe is
  // put back as it was when the change is not made.
  const restore = currentPrice ? await putBackCurrentPlan(change, itemId, currentPrice.id, stripeSubscription) : undefined;
  let updated: Stripe.Subscription;
  try {
    updated = await updateAtStripe(change, params);
  } catch (error) {
    await restore?.();
    throw error;
  }
  if (updated.pending_update) {
    await restore?.();
    throw new PaymentRequiredError(PAYMENT_FAILED);
  }
  const applied = await applyNow(deps, request, plan, await productSummary(deps, plan.productId));
  return { subscription: toSubscription(applied), effectiveAt: applied.updatedAt };
}

async function stripeOf(deps: ChangeDeps, tenantId: string): Promise<Stripe> {
  const secretKey = await providerSecretKey(deps, tenantId);
  if (!secretKey) throw new BadRequestError(NO_PROVIDER);
  return deps.payments.stripe(secretKey);
}

const updateAtStripe = (change: Change, params: Stripe.SubscriptionUpdateParams) =>
  change.stripe.subscriptions.update(change.subscription.providerSubscriptionId!, params).catch((error: unknown) => Promise.reject(providerFailure(error, KEY_REFUSED)));

async function loadSubscription(deps: ChangeDeps, request: PlanChangeRequest): Promise<SubscriptionItem> {
  const { data } = await deps.data.entities.subscription.get({ subscriptionId: request.subscriptionId }).go({ consistent: true });
  if (!data || data.tenantId !== request.tenantId || (request.customerId !== undefined && data.customerId !== request.customerId)) {
    throw new NotFoundError(SUBSCRIPTION_NOT_FOUND);
  }
  if (!data.providerSubscriptionId || !data.productId) throw new BadRequestError(NOT_AT_PROVIDER);
  if (data.status === 'canceled' || data.status === 'incomplete_expired') throw new BadRequestError(SUBSCRIPTION_ENDED);
  return data;
}

async function loadTargetPlan(deps: ChangeDeps, tenantId: string, planId: string): Promise<PlanItem> {
  const { data } = await deps.data.entities.plan.get({ planId }).go({ consistent: true });
  if (!data || data.tenantId !== tenantId) throw new NotFoundError(PLAN_NOT_FOUND);
  return data;
}

/**
 * The plan the subscription is on, on the terms it pays (the plan's own may have changed since it was sold), under the
 * plan's name now (its Stripe product's), when the plan is still there.
 */
const paidTerms = (subscription: SubscriptionItem, plan: PlanItem | undefined) => ({
  planId: subscription.planId!,
  name: plan?.name ?? subscription.planName ?? '',
  price: subscription.price ?? 0,
  currency: subscription.currency ?? 'USD',
  billingCycle: (subscription.billingCycle ?? 'yearly') as PlanItem['billingCycle'],
});

/**
 * Puts the current plan's price back on the Stripe subscription without proration (the pending downgrade's price
 * comes off it), and answers how to put Stripe back as it was: the price and metadata it had.
 */
async function putBackCurrentPlan(change: Change, itemId: string, currentPriceId: string, before: Stripe.Subscription): Promise<() => Promise<void>> {
  await updateAtStripe(change, { items: [{ id: itemId, price: currentPriceId }], proration_behavior: 'none' });
  const pendingPrice = before.items.data[0]!.price.id;
  return async () => {
    // Best effort: the request fails either way, and the pending downgrade here is unchanged.
    await updateAtStripe(change, { items: [{ id: itemId, price: pendingPrice }], proration_behavior: 'none', metadata: before.metadata }).catch(() => undefined);
  };
}

/** Asking for the current plan while a downgrade is pending takes the downgrade back, at Stripe and here. */
async function keepPlan(deps: ChangeDeps, change: Change, plan: PlanItem) {
  const { subscription, license, stripe, productName } = change;
  const terms = paidTerms(subscription, plan);
  const [stripeSubscription, price] = await Promise.all([
    stripe.subscriptions.retrieve(subscription.providerSubscriptionId!),
    planPrice(stripe, terms, productName),
  ]).catch((error: unknown) => Promise.reject(providerFailure(error, KEY_REFUSED)));
  const itemId = subscriptionItemId(stripeSubscription);
  if (!itemId) throw new BadRequestError(NOT_AT_PROVIDER);
  const metadata = soldPlanMetadata({ ...terms, siteLimit: license?.seats ?? plan.siteLimit, channel: plan.channel });
  await updateAtStripe(change, { items: [{ id: itemId, price: price.id }], proration_behavior: 'none', metadata });
  const kept = await writePending(deps, subscription, license, undefined);
  return { subscription: toSubscription(kept), effectiveAt: kept.updatedAt };
}

/** The downgrade pending on a subscription as read, with the seats its license holds for it. */
function pendingOf(subscription: SubscriptionItem, license: LicenseItem | undefined): PendingChange | undefined {
  if (!subscription.pendingPlanId || !subscription.pendingPlanEffectiveAt) return undefined;
  return { planId: subscription.pendingPlanId, effectiveAt: subscription.pendingPlanEffectiveAt, seats: license?.pendingSeats };
}

/**
 * Records a pending downgrade (or none) on the subscription, conditioned on it being as read, and its seats on the
 * license, conditioned on the license's active sites fitting them (409 otherwise), in one transaction, which also
 * carries the change's audit entry (shared/identity/audit/audit-scope.ts).
 */
async function writePending(deps: ChangeDeps, subscription: SubscriptionItem, license: LicenseItem | undefined, pending: PendingChange | undefined): Promise<SubscriptionItem> {
  const updatedAt = deps.clock.now().toISOString();
  const { pendingPlanId: _plan, pendingPlanEffectiveAt: _at, ...rest } = subscription;
  const next: SubscriptionItem = pending ? { ...rest, pendingPlanId: pending.planId, pendingPlanEffectiveAt: pending.effectiveAt, updatedAt } : { ...rest, updatedAt };
  const outcome = await transact(deps.data, (tx) => pendingItems(tx, subscription, license, pending, updatedAt));
  if (outcome.committed) return next;
  if (outcome.refused('license') && license && pending?.seats !== undefined) {
    const latest = await loadLicense(deps, license.tenantId, license.licenseId);
    if (latest.activatedCount > pending.seats) throw new ConflictError(tooManySites(latest.activatedCount, pending.seats));
  }
  throw new ConflictError(CHANGED_CONCURRENTLY);
}

function pendingItems(
  tx: Pick<TransactionEntities, 'subscription' | 'license'>,
  subscription: SubscriptionItem,
  license: LicenseItem | undefined,
  pending: PendingChange | undefined,
  updatedAt: string,
) {
  const row = tx.subscription.patch({ subscriptionId: subscription.subscriptionId });
  const seats = pending?.seats;
  const seatsRow = license && tx.license.patch({ licenseKey: license.licenseKey });
  return {
    subscription: (pending ? row.set({ pendingPlanId: pending.planId, pendingPlanEffectiveAt: pending.effectiveAt, updatedAt }) : row.set({ updatedAt }).remove(['pendingPlanId', 'pendingPlanEffectiveAt']))
      .where(({ updatedAt: at }, { eq }) => eq(at, subscription.updatedAt))
      .commit(),
    license:
      seatsRow &&
      (seats !== undefined
        ? seatsRow.set({ pendingSeats: seats }).where(({ licenseId, activatedCount }, { eq, lte }) => `${eq(licenseId, license.licenseId)} AND ${lte(activatedCount, seats)}`)
        : seatsRow.remove(['pendingSeats']).where(({ licenseId }, { eq }) => eq(licenseId, license.licenseId))
      ).commit(),
  };
}

/**
 * Takes back a pending change Stripe did not take (the one read before, or none), unless something else changed the
 * subscription since; in a transaction that records the taking back, as the change was recorded.
 */
async function takeBack(deps: ChangeDeps, written: SubscriptionItem, license: LicenseItem | undefined, before: PendingChange | undefined): Promise<void> {
  auditTakingBack();
  await transact(deps.data, (tx) => pendingItems(tx, written, license, before, deps.clock.now().toISOString()));
}

/**
 * The change applied here after Stripe took it: read again (Stripe's event may have applied it meanwhile: then
 * nothing is written twice), and written while the license's sites fit the plan (409 otherwise).
 */
async function applyNow(deps: ChangeDeps, request: PlanChangeRequest, plan: PlanItem, product: { id: string; name: string; slug: string }) {
  for (let round = 0; round < 5; round++) {
    const subscription = await loadSubscription(deps, request);
    if (subscription.planId === plan.planId) return subscription;
    const license = subscription.licenseId ? await loadLicense(deps, request.tenantId, subscription.licenseId).catch(() => undefined) : undefined;
    const now = deps.clock.now();
    const next = onPlan(subscription, plan, now.toISOString());
    const outcome = await transact(deps.data, (tx) => planChangeItems(tx, { current: subscription, next, license, plan, product, now, seatsHeld: true }));
    if (outcome.committed) return next;
    if (outcome.refused('license') && license && license.activatedCount > plan.siteLimit) throw new ConflictError(tooManySites(license.activatedCount, plan.siteLimit));
    if (!outcome.refused('subscription') && !outcome.refused('license')) throw outcome.unexpected();
  }
  throw new ConflictError(CHANGED_CONCURRENTLY);
}
