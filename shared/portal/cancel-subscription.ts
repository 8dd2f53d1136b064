import { writeItem } from '../platform/data/index.js';
import { BadRequestError, NotFoundError } from '../platform/index.js';
import { KEY_REFUSED, type PaymentDeps, providerFailure, providerSecretKey } from '../billing/index.js';
import { customerIdOf, type PortalDataDeps, type PortalScope } from './customer-scope.js';

export const SUBSCRIPTION_NOT_FOUND = 'Subscription not found';
export const NO_PROVIDER = 'No payment provider is connected';
const NOT_AT_PROVIDER = 'Subscription is not billed through the payment provider';

/**
 * Flags the customer's subscription to end at period end (SERVICE-SPEC §3): Stripe first, on the developer's
 * connected account, then our record, so a refusal or outage at Stripe changes nothing here (502). The final state
 * arrives later with Stripe's own event. Another customer's or tenant's subscription is 404.
 */
export async function cancelSubscription(deps: PortalDataDeps & PaymentDeps, scope: PortalScope, subscriptionId: string) {
  return setCancelAtPeriodEnd(deps, scope, subscriptionId, true);
}

/** Takes a cancellation back before the period ends (the hosted portal's undo), the same way. */
export async function resumeSubscription(deps: PortalDataDeps & PaymentDeps, scope: PortalScope, subscriptionId: string) {
  return setCancelAtPeriodEnd(deps, scope, subscriptionId, false);
}

async function setCancelAtPeriodEnd(deps: PortalDataDeps & PaymentDeps, scope: PortalScope, subscriptionId: string, cancelAtPeriodEnd: boolean) {
  const { subscription } = deps.data.entities;
  const [customerId, { data: item }] = await Promise.all([
    customerIdOf(deps, scope),
    subscription.get({ subscriptionId }).go({ consistent: true }),
  ]);
  if (!item || !customerId || item.tenantId !== scope.tenantId || item.customerId !== customerId) throw new NotFoundError(SUBSCRIPTION_NOT_FOUND);
  if (!item.providerSubscriptionId) throw new BadRequestError(NOT_AT_PROVIDER);
  const secretKey = await providerSecretKey(deps, scope.tenantId);
  if (!secretKey) throw new BadRequestError(NO_PROVIDER);
  const stripe = await deps.payments.stripe(secretKey);
  try {
    await stripe.subscriptions.update(item.providerSubscriptionId, { cancel_at_period_end: cancelAtPeriodEnd });
  } catch (error) {
    throw providerFailure(error, KEY_REFUSED);
  }
  const recorded = await writeItem(() =>
    subscription
      .patch({ subscriptionId })
      .set({ cancelAtPeriodEnd, updatedAt: deps.clock.now().toISOString() })
      .where(({ customerId: holder }, { eq }) => eq(holder, customerId))
      .go({ response: 'none' }),
  );
  // Deleted between the read and the write: Stripe holds the flag, and its next event syncs what is left.
  if (!recorded.written) throw new NotFoundError(SUBSCRIPTION_NOT_FOUND);
  return { id: subscriptionId, cancelAtPeriodEnd };
}
