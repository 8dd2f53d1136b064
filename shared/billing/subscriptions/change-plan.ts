import { toSubscription } from '../billing-views.js';
import { auditTakingBack } from '../../identity/index.js';
import { type EntityItem, transact } from '../../platform/data/index.js';
import { BadRequestError, ConflictError, type Deps, NotFoundError } from '../../platform/index.js';
import { loadLicense, productSummary } from '../../licensing/index.js';
import type { PaymentDeps } from '../payments/payment-deps.js';
import { providerSecretKey } from '../payments/payment-provider.js';
import { KEY_REFUSED, providerFailure } from '../payments/provider-errors.js';
import { loadProduct } from '../../catalog/index.js';
import { planChangeParams, subscriptionLine } from '../commerce/lifecycle-mapping.js';
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
const CHANGED_CONCURRENTLY = 'The subscription was changed concurrently; retry';

/** Who asks: the vendor (any of its subscriptions), or a customer through the portal (theirs only). */
export type PlanChangeRequest = { tenantId: string; subscriptionId: string; planId: string; customerId?: string };

/**
 * Moves a subscription to another recurring plan of its product (DECISIONS §15), at Stripe first, on the vendor's
 * account: an upgrade (or any change under `prorateAll` / `none`) applies at once, here too, with the license's
 * seats and plan; a downgrade is recorded as pending and Stripe is given the new price without proration, so it bills
 * it from the next period; `customer.subscription.updated` of the new period applies it (shared/billing/commerce/plan-change-sync.ts).
 * The pending change is written before Stripe is called, so Stripe's event, however early, finds it; a Stripe failure
 * takes it back (502 or 400, nothing changed). Answers the subscription and when the change takes effect.
 */
export async function changePlan(deps: ChangeDeps, request: PlanChangeRequest) {
  const subscription = await loadSubscription(deps, request);
  const [license, product, plan] = await Promise.all([
    subscription.licenseId ? loadLicense(deps, request.tenantId, subscription.licenseId).catch(() => undefined) : undefined,
    loadProduct(deps, request.tenantId, subscription.productId!),
    loadTargetPlan(deps, request.tenantId, request.planId),
  ]);
  if (plan.productId !== subscription.productId || plan.billingCycle === 'lifetime') throw new BadRequestError(NOT_A_PLAN_OF_THE_PRODUCT);
  if (plan.planId === subscription.planId) throw new BadRequestError(ALREADY_ON_PLAN);
  if (license && license.activatedCount > plan.siteLimit) throw new ConflictError(tooManySites(license.activatedCount, plan.siteLimit));
  const current = { billingCycle: (subscription.billingCycle ?? 'yearly') as PlanItem['billingCycle'], price: subscription.price ?? 0 };
  const timing = planChangeTiming(product.planChangeProration, current, plan);

  const secretKey = await providerSecretKey(deps, request.tenantId);
  if (!secretKey) throw new BadRequestError(NO_PROVIDER);
  const stripe = await deps.payments.stripe(secretKey);
  const stripeSubscription = await stripe.subscriptions.retrieve(subscription.providerSubscriptionId!).catch((error: unknown) => Promise.reject(providerFailure(error, KEY_REFUSED)));
  const line = subscriptionLine(stripeSubscription);
  if (!line) throw new BadRequestError(NOT_AT_PROVIDER);
  const params = planChangeParams({ line, plan, currentCycle: subscription.billingCycle, timing, periodEnd: subscription.currentPeriodEnd });

  if (timing.at === 'periodEnd') {
    const effectiveAt = subscription.currentPeriodEnd ?? deps.clock.now().toISOString();
    const pending = await setPending(deps, subscription, { pendingPlanId: plan.planId, pendingPlanEffectiveAt: effectiveAt });
    try {
      await stripe.subscriptions.update(subscription.providerSubscriptionId!, params);
    } catch (error) {
      await clearPending(deps, pending);
      throw providerFailure(error, KEY_REFUSED);
    }
    return { subscription: toSubscription(pending), effectiveAt };
  }

  await stripe.subscriptions.update(subscription.providerSubscriptionId!, params).catch((error: unknown) => Promise.reject(providerFailure(error, KEY_REFUSED)));
  const applied = await applyNow(deps, request, plan, await productSummary(deps, plan.productId));
  return { subscription: toSubscription(applied), effectiveAt: applied.updatedAt };
}

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

type Pending = Pick<SubscriptionItem, 'pendingPlanId' | 'pendingPlanEffectiveAt'>;

async function setPending(deps: ChangeDeps, subscription: SubscriptionItem, pending: Pending): Promise<SubscriptionItem> {
  const next = { ...subscription, ...pending, updatedAt: deps.clock.now().toISOString() };
  // A transaction, so that the audit entry of the change rides with it (shared/identity/audit/audit-scope.ts).
  const outcome = await transact(deps.data, (tx) => ({
    subscription: tx.subscription
      .patch({ subscriptionId: subscription.subscriptionId })
      .set({ ...pending, updatedAt: next.updatedAt })
      .where(({ updatedAt }, { eq }) => eq(updatedAt, subscription.updatedAt))
      .commit(),
  }));
  if (!outcome.committed) throw new ConflictError(CHANGED_CONCURRENTLY);
  return next;
}

/**
 * Takes back a pending change Stripe did not take, unless something else changed the subscription since; in a
 * transaction that records the taking back, as the change was recorded.
 */
async function clearPending(deps: ChangeDeps, pending: SubscriptionItem): Promise<void> {
  auditTakingBack();
  await transact(deps.data, (tx) => ({
    subscription: tx.subscription
      .patch({ subscriptionId: pending.subscriptionId })
      .remove(['pendingPlanId', 'pendingPlanEffectiveAt'])
      .where(({ updatedAt }, { eq }) => eq(updatedAt, pending.updatedAt))
      .commit(),
  }));
}
