import type Stripe from 'stripe';
import { soldPlanMetadata } from '../commerce/sold-plan.js';
import { BadRequestError, type Deps, toMinorUnits } from '../../platform/index.js';
import type { ProductCatalog } from '../../licensing/index.js';
import { isReturnUrlAllowed, reachMilestone, RETURN_URL_NOT_ALLOWED } from '../../catalog/index.js';
import type { PaymentDeps } from './payment-deps.js';
import { checkoutProvider } from './payment-provider.js';
import { checkoutExtras } from './checkout-extras.js';
import { INVALID_PROMOTION_CODE, promotionCodeFor } from '../coupons/coupons.js';
import { isInvalidRequest, providerFailure } from './provider-errors.js';
import { planProductId, sellingPlan } from './plan-products.js';
import { planOnSale, productOfPublicKey } from './public-plans.js';

type CheckoutDeps = Pick<Deps, 'data' | 'clock'> & PaymentDeps;

export const CHECKOUT_UNAVAILABLE = 'Checkout is not available for this product';
/** Checkout sessions are kept this long for the return route (Stripe's own expire within a day). */
const SESSION_ITEM_TTL_SECONDS = 30 * 24 * 3600;

export type CheckoutRequest = {
  publicKey: string;
  plan: { slug: string } | { id: string };
  email?: string;
  returnUrl?: string;
  activateParam: string;
  pendingParam: string;
  baseUrl: string;
  /** A promotion code to apply as the session's discount (DECISIONS §15). */
  promo?: string;
};

type SessionParams = Stripe.Checkout.SessionCreateParams;

/**
 * Opens a Stripe Checkout Session for a plan on sale, on the vendor's own Stripe account, and records it for the
 * return route; answers the hosted checkout's URL. Subscriptions for monthly and yearly plans, one payment for
 * lifetime ones; the price in the currency's minor units, on the plan's own Stripe product (plan-products.ts: what a
 * coupon restricted to plans is checked against). `metadata` (DECISIONS §6, with the plan as sold) is what the
 * Stripe webhook issues the license from; subscriptions carry it too, for their renewals.
 */
export async function startCheckout(deps: CheckoutDeps, catalog: ProductCatalog, request: CheckoutRequest): Promise<string> {
  const product = await productOfPublicKey(catalog, request.publicKey);
  // The buyer's key goes to `return_url`: only to an origin the vendor listed (DECISIONS §13).
  if (request.returnUrl && !isReturnUrlAllowed(product.returnOrigins ?? [], request.returnUrl)) throw new BadRequestError(RETURN_URL_NOT_ALLOWED);
  const plan = await planOnSale(deps, product.productId, request.plan);
  const provider = await checkoutProvider(deps, product.tenantId);
  if (!provider) throw new BadRequestError(CHECKOUT_UNAVAILABLE);
  const promotionCode = request.promo ? await promotionCodeFor(deps, product.tenantId, request.promo, plan.planId) : undefined;

  const metadata = {
    developer_id: product.tenantId,
    product_id: product.productId,
    // What is sold, as it is now: the license is issued from this, whatever becomes of the plan meanwhile.
    ...soldPlanMetadata(plan),
    // Every key DECISIONS §6 names is sent; without a return URL it is empty (Stripe then stores none).
    return_url: request.returnUrl ?? '',
    activate_param: request.activateParam,
    pending_param: request.pendingParam,
  };
  const recurring = plan.billingCycle === 'lifetime' ? undefined : { interval: plan.billingCycle === 'monthly' ? ('month' as const) : ('year' as const) };
  const params: SessionParams = {
    mode: recurring ? 'subscription' : 'payment',
    line_items: [
      {
        quantity: 1,
        price_data: {
          currency: plan.currency.toLowerCase(),
          unit_amount: toMinorUnits(plan.price, plan.currency),
          product: planProductId(plan.planId),
          ...(recurring && { recurring }),
        },
      },
    ],
    ...(request.email && { customer_email: request.email }),
    metadata,
    ...(recurring && { subscription_data: { metadata, ...(plan.trialDays && { trial_period_days: plan.trialDays }) } }),
    ...checkoutExtras(plan, provider, promotionCode),
    success_url: `${request.baseUrl}/public/v1/checkout/return?session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: request.returnUrl ?? request.baseUrl,
  };

  let session: Stripe.Checkout.Session;
  try {
    const stripe = await deps.payments.stripe(provider.secretKey);
    session = await sellingPlan(stripe, plan, product.name, () => stripe.checkout.sessions.create(params));
  } catch (error) {
    // Stripe refuses a promotion code it no longer takes (used up meanwhile): the buyer's mistake to correct.
    if (promotionCode && isInvalidRequest(error)) throw new BadRequestError(INVALID_PROMOTION_CODE);
    // The vendor's key stopped working (rolled or revoked in Stripe): checkout is unavailable until they reconnect.
    throw providerFailure(error, CHECKOUT_UNAVAILABLE);
  }
  if (!session.url) throw providerFailure(new Error('Stripe answered a session without a URL'), CHECKOUT_UNAVAILABLE);
  const now = deps.clock.now();
  await deps.data.entities.checkoutSession
    .put({
      checkoutSessionId: session.id,
      tenantId: product.tenantId,
      productId: product.productId,
      planId: plan.planId,
      ...(request.returnUrl && { returnUrl: request.returnUrl }),
      activateParam: request.activateParam,
      pendingParam: request.pendingParam,
      createdAt: now.toISOString(),
      ttl: Math.floor(now.getTime() / 1000) + SESSION_ITEM_TTL_SECONDS,
    })
    .go();
  // A buyer opened a checkout link of the product: the dashboard's last first step (DECISIONS §22).
  await reachMilestone(deps, { productId: product.productId, tenantId: product.tenantId, milestone: 'firstCheckout', at: now.toISOString() });
  return session.url;
}
