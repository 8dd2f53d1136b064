import type Stripe from 'stripe';
import type { EntityItem } from '../../platform/data/index.js';
import { fromMinorUnits } from '../../platform/index.js';

/**
 * Stripe objects → our records, as pure functions (each has a unit test). They read both the current API's
 * shapes (periods on subscription items, an invoice's subscription under `parent`) and the older top-level
 * fields, so a vendor's account pinned to an older API version is read the same way.
 */

export type Period = { start: string; end: string };
type PlanItem = EntityItem<'plan'>;

const iso = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString();
const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : value?.id);

/** Whose sale a session is, as checkout put it in the metadata (DECISIONS §6); undefined when it does not say. */
export function purchaseMetadata(session: Pick<Stripe.Checkout.Session, 'metadata'>) {
  const { developer_id: tenantId, product_id: productId } = session.metadata ?? {};
  return tenantId && productId ? { tenantId, productId } : undefined;
}

/** The buyer's e-mail: what they typed at checkout, else what checkout was opened with. */
export function purchaseEmail(session: Pick<Stripe.Checkout.Session, 'customer_details' | 'customer_email'>): string | undefined {
  return session.customer_details?.email ?? session.customer_email ?? undefined;
}

export function purchaseName(session: Pick<Stripe.Checkout.Session, 'customer_details'>): string | undefined {
  return session.customer_details?.name ?? undefined;
}

/** Stripe's id of what was paid: the payment intent (one-time payments), else the invoice (subscriptions). */
export function sessionPaymentId(session: Pick<Stripe.Checkout.Session, 'payment_intent' | 'invoice'>): string | undefined {
  return idOf(session.payment_intent) ?? idOf(session.invoice);
}

/**
 * The document of a subscription checkout's first invoice: the subscription's `latest_invoice` (expanded) while it is
 * still the session's own invoice; a later one (a late webhook after a renewal) is another payment's.
 */
export function firstInvoicePdf(session: Pick<Stripe.Checkout.Session, 'invoice'>, subscription: Pick<Stripe.Subscription, 'latest_invoice'>): string | undefined {
  const latest = subscription.latest_invoice;
  if (!latest || typeof latest === 'string' || latest.id !== idOf(session.invoice)) return undefined;
  return latest.invoice_pdf ?? undefined;
}

export function sessionSubscriptionId(session: Pick<Stripe.Checkout.Session, 'subscription'>): string | undefined {
  return idOf(session.subscription);
}

type LegacyPeriod = { current_period_start?: number; current_period_end?: number };

/** A subscription's current period: on its first item since API 2025-03-31, on the subscription before. */
export function subscriptionPeriod(subscription: Pick<Stripe.Subscription, 'items'> & LegacyPeriod): Period | undefined {
  const item = subscription.items?.data?.[0] as (LegacyPeriod & object) | undefined;
  const start = item?.current_period_start ?? subscription.current_period_start;
  const end = item?.current_period_end ?? subscription.current_period_end;
  return start && end ? { start: iso(start), end: iso(end) } : undefined;
}

/** What `customer.subscription.updated` / `deleted` sync onto our subscription. */
export function subscriptionState(subscription: Stripe.Subscription & LegacyPeriod) {
  const period = subscriptionPeriod(subscription);
  return {
    status: subscription.status,
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    canceledAt: subscription.canceled_at ? iso(subscription.canceled_at) : undefined,
    currentPeriodStart: period?.start,
    currentPeriodEnd: period?.end,
  };
}

type LegacyInvoice = { subscription?: string | { id: string } | null };

/** The subscription an invoice bills: under `parent` since API 2025-03-31, top-level before. */
export function invoiceSubscriptionId(invoice: Pick<Stripe.Invoice, 'parent'> & LegacyInvoice): string | undefined {
  return idOf(invoice.parent?.subscription_details?.subscription) ?? idOf(invoice.subscription);
}

/** The period an invoice pays for: its subscription line's. */
export function invoicePeriod(invoice: Pick<Stripe.Invoice, 'lines'>): Period | undefined {
  const period = invoice.lines?.data?.[0]?.period;
  return period ? { start: iso(period.start), end: iso(period.end) } : undefined;
}

/**
 * The end of the period whose renewal an invoice's payment failed: the invoice's own `period_end` (Stripe bills a
 * renewal when the period it renews ends, and the invoice's period is that one; its line's is the next).
 */
export function failedPeriodEnd(invoice: Pick<Stripe.Invoice, 'period_end'>): string | undefined {
  return invoice.period_end ? iso(invoice.period_end) : undefined;
}

/** The grace a failed renewal payment gives its license (DECISIONS §15): the failed period's end + `graceDays`. */
export function graceEnd(periodEnd: string, graceDays: number): string {
  return new Date(Date.parse(periodEnd) + graceDays * 24 * 3600 * 1000).toISOString();
}

type LegacyCharge = { invoice?: string | { id: string } | null };

/**
 * A charge's references to a payment we recorded: its payment intent (one-time purchases are recorded under it),
 * and its invoice on API versions before 2025-03-31 (subscription payments are recorded under their invoice).
 */
export function chargePaymentIds(charge: Pick<Stripe.Charge, 'payment_intent'> & LegacyCharge): string[] {
  return [idOf(charge.payment_intent), idOf(charge.invoice)].filter((id): id is string => Boolean(id));
}

export function chargePaymentIntentId(charge: Pick<Stripe.Charge, 'payment_intent'>): string | undefined {
  return idOf(charge.payment_intent);
}

/**
 * The invoices a payment intent paid, from its invoice payments: since API 2025-03-31 a charge names no invoice,
 * and an invoice payment is what ties the payment intent to the invoice of a subscription's first or renewal payment.
 */
export function paidInvoiceIds(payments: Pick<Stripe.ApiList<Stripe.InvoicePayment>, 'data'>): string[] {
  return payments.data.map((payment) => idOf(payment.invoice)).filter((id): id is string => Boolean(id));
}

/** A payment (major units, DECISIONS §10) from a Stripe amount in minor units. */
export function paymentRecord(input: {
  paymentId: string;
  tenantId: string;
  customerId: string;
  licenseId: string;
  product: { productId: string; name: string };
  amountMinor: number;
  currency: string;
  providerPaymentId: string | undefined;
  invoicePdfUrl?: string | null;
  now: Date;
}): EntityItem<'payment'> {
  const currency = input.currency.toUpperCase();
  return {
    paymentId: input.paymentId,
    tenantId: input.tenantId,
    customerId: input.customerId,
    licenseId: input.licenseId,
    productId: input.product.productId,
    productName: input.product.name,
    amount: fromMinorUnits(input.amountMinor, currency),
    currency,
    status: 'completed',
    paymentMethod: 'stripe',
    ...(input.invoicePdfUrl && { invoicePdfUrl: input.invoicePdfUrl }),
    ...(input.providerPaymentId && { providerPaymentId: input.providerPaymentId }),
    createdAt: input.now.toISOString(),
  };
}

/** Our subscription for a Stripe subscription bought through checkout: the plan's name, cycle and price. */
export function subscriptionRecord(input: {
  subscriptionId: string;
  tenantId: string;
  customerId: string;
  licenseId: string;
  product: { productId: string; name: string };
  plan: Pick<PlanItem, 'planId' | 'name' | 'billingCycle' | 'price' | 'currency'>;
  providerSubscriptionId: string;
  status: string;
  period: Period;
  now: Date;
}): EntityItem<'subscription'> {
  const at = input.now.toISOString();
  return {
    subscriptionId: input.subscriptionId,
    tenantId: input.tenantId,
    customerId: input.customerId,
    licenseId: input.licenseId,
    productId: input.product.productId,
    productName: input.product.name,
    planId: input.plan.planId,
    planName: input.plan.name,
    billingCycle: input.plan.billingCycle,
    price: input.plan.price,
    currency: input.plan.currency,
    status: input.status,
    currentPeriodStart: input.period.start,
    currentPeriodEnd: input.period.end,
    cancelAtPeriodEnd: false,
    providerSubscriptionId: input.providerSubscriptionId,
    createdAt: at,
    updatedAt: at,
  };
}
