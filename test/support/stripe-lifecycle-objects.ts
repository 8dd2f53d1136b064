import type Stripe from 'stripe';
import { recurringPrice, stripeId, unixNow } from './stripe-objects.js';

/**
 * Stripe's objects and changes for the subscription lifecycle (DECISIONS §15), typed with the `stripe` package's
 * types for its pinned API version: what a subscription becomes after an update, coupons and promotion codes.
 */

type Form = Record<string, any>;
const int = (value: unknown) => (value === undefined ? undefined : Number(value));

/**
 * A subscription after `POST /v1/subscriptions/{id}` as Stripe applies it: the item's price replaced (`price`, the
 * Price object it names, or `price_data` on the Stripe product given), metadata merged, `cancel_at_period_end` set, and
 * a `trial_end` that starts a trial running to it (the item's period with it).
 */
export function updatedSubscription(current: Stripe.Subscription, params: Form, namedPrice?: Stripe.Price): Stripe.Subscription {
  const [item] = current.items.data;
  const priceData = params.items?.[0]?.price_data as Form | undefined;
  const trialEnd = int(params.trial_end);
  let nextItem = item!;
  if (namedPrice) {
    nextItem = { ...nextItem, price: namedPrice, plan: legacyPlan(namedPrice) };
  } else if (priceData) {
    const { price, plan } = recurringPrice(Number(priceData.unit_amount), priceData.currency, priceData.recurring.interval);
    nextItem = { ...nextItem, price: { ...price, product: priceData.product }, plan: { ...plan, product: priceData.product } };
  }
  if (trialEnd) nextItem = { ...nextItem, current_period_start: unixNow(), current_period_end: trialEnd };
  return {
    ...current,
    items: { ...current.items, data: [nextItem] },
    metadata: { ...current.metadata, ...(params.metadata ?? {}) },
    ...(params.cancel_at_period_end !== undefined && { cancel_at_period_end: params.cancel_at_period_end === 'true' }),
    ...(trialEnd && { status: 'trialing' as const, trial_start: unixNow(), trial_end: trialEnd }),
  };
}

/** The subscription moved to a new period, as Stripe has it at renewal: the item's period, the trial over. */
export function renewedSubscription(current: Stripe.Subscription, start: number, end: number): Stripe.Subscription {
  const [item] = current.items.data;
  return { ...current, status: 'active', trial_end: null, items: { ...current.items, data: [{ ...item!, current_period_start: start, current_period_end: end }] } };
}

/** A subscription whose price the vendor changed in Stripe's dashboard to a price tagged with our plan's id. */
export function repricedSubscription(current: Stripe.Subscription, amount: number, planId: string): Stripe.Subscription {
  const [item] = current.items.data;
  const { price, plan } = recurringPrice(amount, 'usd', item!.price.recurring?.interval ?? 'year');
  return { ...current, items: { ...current.items, data: [{ ...item!, price: { ...price, metadata: { plan_id: planId } }, plan }] } };
}

export function stripeCoupon(params: Form): Stripe.Coupon {
  const products = params.applies_to?.products as string[] | undefined;
  return {
    id: stripeId('cpn').slice(0, 12),
    object: 'coupon',
    amount_off: int(params.amount_off) ?? null,
    ...(products && { applies_to: { products } }),
    created: unixNow(),
    currency: params.currency ?? null,
    duration: params.duration ?? 'once',
    duration_in_months: int(params.duration_in_months) ?? null,
    livemode: false,
    max_redemptions: int(params.max_redemptions) ?? null,
    metadata: params.metadata ?? {},
    name: params.name ?? null,
    percent_off: params.percent_off === undefined ? null : Number(params.percent_off),
    redeem_by: int(params.redeem_by) ?? null,
    times_redeemed: 0,
    valid: true,
  };
}

export function stripePromotionCode(params: Form, coupon: string): Stripe.PromotionCode {
  return {
    id: stripeId('promo'),
    object: 'promotion_code',
    active: params.active === undefined ? true : params.active === 'true',
    code: params.code ?? stripeId('CODE'),
    created: unixNow(),
    customer: null,
    customer_account: null,
    expires_at: int(params.expires_at) ?? null,
    livemode: false,
    max_redemptions: int(params.max_redemptions) ?? null,
    metadata: params.metadata ?? {},
    promotion: { coupon, type: 'coupon' },
    restrictions: { first_time_transaction: false, minimum_amount: null, minimum_amount_currency: null },
    times_redeemed: 0,
  };
}

/** A product as `POST /v1/products` makes it: the `id` given (Stripe takes one), else one of Stripe's. */
export function stripeProduct(params: Form): Stripe.Product {
  const at = unixNow();
  return {
    id: params.id ?? stripeId('prod'),
    object: 'product',
    active: params.active === undefined ? true : params.active === 'true',
    created: at,
    description: params.description ?? null,
    images: [],
    livemode: false,
    marketing_features: [],
    metadata: params.metadata ?? {},
    name: params.name,
    package_dimensions: null,
    shippable: null,
    tax_details: null,
    type: 'service',
    updated: at,
    url: null,
  };
}

/** A recurring price as `POST /v1/prices` makes it, on the product named, with its metadata. */
export function stripePrice(params: Form): Stripe.Price {
  const { price } = recurringPrice(Number(params.unit_amount), params.currency, params.recurring.interval);
  return { ...price, product: params.product, metadata: params.metadata ?? {} };
}

/** The legacy plan Stripe still shows beside a price on a subscription item. */
function legacyPlan(price: Stripe.Price): Stripe.Plan {
  const { plan } = recurringPrice(price.unit_amount ?? 0, price.currency, price.recurring?.interval ?? 'year');
  return { ...plan, id: price.id, product: price.product, metadata: price.metadata };
}

/** A billing-portal session as Stripe answers its creation; `url` is the page the buyer is sent to (the fake's own). */
export function stripeBillingPortalSession(params: Form, baseUrl: string): Stripe.BillingPortal.Session {
  const id = stripeId('bps');
  return {
    id,
    object: 'billing_portal.session',
    configuration: stripeId('bpc'),
    created: unixNow(),
    customer: String(params.customer),
    customer_account: null,
    flow: null,
    livemode: false,
    locale: null,
    on_behalf_of: null,
    return_url: typeof params.return_url === 'string' ? params.return_url : null,
    url: `${baseUrl}/_fake/billing-portal/${id}`,
  };
}
