import { randomBytes } from 'node:crypto';
import type Stripe from 'stripe';

/**
 * Stripe objects as the API version the `stripe` package pins shapes them, for the fake Stripe server's answers
 * and the events tests send. Each builder returns the package's own type, whole: a field the pinned API does not
 * have (a charge's `invoice`, an invoice's top-level `subscription`) fails the type check, and one it added must
 * be given. Defaults are Stripe's values for an object with nothing special about it; tests set what they test.
 */

export const stripeId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
export const unixNow = () => Math.floor(Date.now() / 1000);

/** An API list, as Stripe pages its lists. */
export function stripeList<T>(data: T[], url: string): Stripe.ApiList<T> {
  return { object: 'list', data, has_more: false, url };
}

/** The body of a Stripe error answer. */
export const stripeError = (type: Stripe.StripeRawError['type'], message: string): { error: Stripe.StripeRawError } => ({ error: { type, message } });

export const stripeBalance = (): Stripe.Balance => ({ object: 'balance', available: [], pending: [], livemode: false });

/** What the buyer typed at checkout. */
export function customerDetails(email: string | null, name: string | null = null): Stripe.Checkout.Session.CustomerDetails {
  return { address: null, business_name: null, email, individual_name: null, name, phone: null, tax_exempt: 'none', tax_ids: [] };
}

export function stripeCheckoutSession(fields: Partial<Stripe.Checkout.Session> & Pick<Stripe.Checkout.Session, 'id'>): Stripe.Checkout.Session {
  const created = fields.created ?? unixNow();
  return {
    object: 'checkout.session',
    adaptive_pricing: null,
    after_expiration: null,
    allow_promotion_codes: null,
    allowed_payment_method_types: null,
    amount_subtotal: null,
    amount_total: null,
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: null,
    cancel_url: null,
    client_reference_id: null,
    client_secret: null,
    collected_information: null,
    consent: null,
    consent_collection: null,
    created,
    currency: null,
    currency_conversion: null,
    custom_fields: [],
    custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
    customer: null,
    customer_account: null,
    customer_creation: 'if_required',
    customer_details: null,
    customer_email: null,
    discounts: [],
    expires_at: created + 24 * 3600,
    integration_identifier: null,
    invoice: null,
    invoice_creation: null,
    livemode: false,
    locale: null,
    managed_payments: null,
    metadata: {},
    mode: 'payment',
    origin_context: null,
    payment_intent: null,
    payment_link: null,
    payment_method_collection: 'always',
    payment_method_configuration_details: null,
    payment_method_options: null,
    payment_method_types: ['card'],
    payment_status: 'unpaid',
    permissions: null,
    recovered_from: null,
    saved_payment_method_options: null,
    setup_intent: null,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [],
    status: 'open',
    submit_type: null,
    subscription: null,
    success_url: null,
    total_details: null,
    ui_mode: 'hosted',
    url: null,
    wallet_options: null,
    ...fields,
  };
}

export function stripeCharge(fields: Partial<Stripe.Charge>): Stripe.Charge {
  const amount = fields.amount ?? 0;
  return {
    id: stripeId('ch'),
    object: 'charge',
    amount,
    amount_captured: amount,
    amount_refunded: 0,
    application: null,
    application_fee: null,
    application_fee_amount: null,
    balance_transaction: null,
    billing_details: { address: null, email: null, name: null, phone: null, tax_id: null },
    calculated_statement_descriptor: null,
    captured: true,
    created: unixNow(),
    currency: 'usd',
    customer: null,
    description: null,
    disputed: false,
    failure_balance_transaction: null,
    failure_code: null,
    failure_message: null,
    fraud_details: {},
    livemode: false,
    metadata: {},
    on_behalf_of: null,
    outcome: null,
    paid: true,
    payment_intent: null,
    payment_method: null,
    payment_method_details: null,
    receipt_email: null,
    receipt_number: null,
    receipt_url: null,
    refunded: false,
    review: null,
    shipping: null,
    source: null,
    source_transfer: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: 'succeeded',
    transfer_data: null,
    transfer_group: null,
    ...fields,
  };
}

/** A charge refunded in full (`refunded`), or by `amountRefunded` of its `amount` (a partial refund). */
export function refundedCharge(paymentIntent: string | null, amount: number, amountRefunded = amount): Stripe.Charge {
  return stripeCharge({ amount, amount_refunded: amountRefunded, refunded: amountRefunded >= amount, payment_intent: paymentIntent });
}

type Interval = Stripe.Price.Recurring.Interval;

/** A recurring price of `amount` minor units, and the legacy plan Stripe still shows beside it on subscription items. */
export function recurringPrice(amount: number, currency: string, interval: Interval): { price: Stripe.Price; plan: Stripe.Plan } {
  const id = stripeId('price');
  const product = stripeId('prod');
  const created = unixNow();
  return {
    price: {
      id, object: 'price', active: true, billing_scheme: 'per_unit', created, currency, custom_unit_amount: null, livemode: false,
      lookup_key: null, metadata: {}, nickname: null, product, recurring: { interval, interval_count: 1, meter: null, trial_period_days: null, usage_type: 'licensed' },
      tax_behavior: 'unspecified', tiers_mode: null, transform_quantity: null, type: 'recurring', unit_amount: amount, unit_amount_decimal: null,
    },
    plan: {
      id, object: 'plan', active: true, amount, amount_decimal: null, billing_scheme: 'per_unit', created, currency, interval, interval_count: 1,
      livemode: false, metadata: {}, meter: null, nickname: null, product, tiers_mode: null, transform_usage: null, trial_period_days: null, usage_type: 'licensed',
    },
  };
}

/** A subscription as the pinned API shows it: its period on its one item (since API 2025-03-31). */
export function stripeSubscription(fields: {
  id?: string;
  start: number;
  end: number;
  status?: Stripe.Subscription.Status;
  cancelAtPeriodEnd?: boolean;
  canceledAt?: number | null;
  amount?: number;
  interval?: Interval;
  metadata?: Stripe.Metadata;
}): Stripe.Subscription {
  const id = fields.id ?? stripeId('sub');
  const { price, plan } = recurringPrice(fields.amount ?? 4950, 'usd', fields.interval ?? 'year');
  const item: Stripe.SubscriptionItem = {
    id: stripeId('si'), object: 'subscription_item', billing_thresholds: null, created: fields.start, current_period_end: fields.end,
    current_period_start: fields.start, current_trial: null, discounts: [], metadata: {}, plan, price, quantity: 1, subscription: id, tax_rates: [],
  };
  return {
    id,
    object: 'subscription',
    application: null,
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: fields.start,
    billing_cycle_anchor_config: null,
    billing_mode: { flexible: null, type: 'classic' },
    billing_schedules: [],
    billing_thresholds: null,
    cancel_at: fields.cancelAtPeriodEnd ? fields.end : null,
    cancel_at_period_end: fields.cancelAtPeriodEnd ?? false,
    canceled_at: fields.canceledAt ?? null,
    cancellation_details: null,
    collection_method: 'charge_automatically',
    created: fields.start,
    currency: 'usd',
    customer: stripeId('cus'),
    customer_account: null,
    days_until_due: null,
    default_payment_method: null,
    default_source: null,
    description: null,
    discounts: [],
    ended_at: fields.status === 'canceled' ? unixNow() : null,
    invoice_settings: { account_tax_ids: null, custom_fields: null, description: null, footer: null, issuer: { type: 'self' } },
    items: stripeList([item], `/v1/subscription_items?subscription=${id}`),
    latest_invoice: null,
    livemode: false,
    managed_payments: null,
    metadata: fields.metadata ?? {},
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: null,
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule: null,
    start_date: fields.start,
    status: fields.status ?? 'active',
    test_clock: null,
    transfer_data: null,
    trial_end: null,
    trial_settings: null,
    trial_start: null,
  };
}

/** The invoice of one period of a subscription, paid; its subscription under `parent` (since API 2025-03-31). */
export function stripeInvoice(fields: {
  id?: string;
  subscription: string;
  billingReason: Stripe.Invoice.BillingReason;
  start: number;
  end: number;
  amountPaid?: number;
  invoicePdf?: string | null;
}): Stripe.Invoice {
  const id = fields.id ?? stripeId('in');
  const amount = fields.amountPaid ?? 4950;
  const line: Stripe.InvoiceLineItem = {
    id: stripeId('il'), object: 'line_item', amount, currency: 'usd', description: null, discount_amounts: [], discountable: true, discounts: [],
    invoice: id, livemode: false, metadata: {},
    parent: {
      type: 'subscription_item_details', invoice_item_details: null,
      subscription_item_details: { invoice_item: null, proration: false, proration_details: null, subscription: fields.subscription, subscription_item: stripeId('si') },
    },
    period: { start: fields.start, end: fields.end },
    pretax_credit_amounts: [], pricing: null, quantity: 1, quantity_decimal: null, subscription: fields.subscription, subtotal: amount, taxes: [],
  };
  return {
    id,
    object: 'invoice',
    account_country: 'US',
    account_name: null,
    account_tax_ids: null,
    amount_due: amount,
    amount_overpaid: 0,
    amount_paid: amount,
    amount_remaining: 0,
    amount_shipping: 0,
    application: null,
    attempt_count: 1,
    attempted: true,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null, provider: null, status: null },
    automatically_finalizes_at: null,
    billing_reason: fields.billingReason,
    collection_method: 'charge_automatically',
    created: fields.start,
    currency: 'usd',
    custom_fields: null,
    customer: stripeId('cus'),
    customer_account: null,
    customer_address: null,
    customer_email: null,
    customer_name: null,
    customer_phone: null,
    customer_shipping: null,
    customer_tax_exempt: 'none',
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    due_date: null,
    effective_at: fields.start,
    ending_balance: 0,
    footer: null,
    from_invoice: null,
    invoice_pdf: fields.invoicePdf ?? null,
    issuer: { type: 'self' },
    last_finalization_error: null,
    latest_revision: null,
    lines: stripeList([line], `/v1/invoices/${id}/lines`),
    livemode: false,
    metadata: {},
    next_payment_attempt: null,
    number: null,
    on_behalf_of: null,
    parent: { type: 'subscription_details', quote_details: null, subscription_details: { metadata: {}, subscription: fields.subscription } },
    payment_settings: { default_mandate: null, payment_method_options: null, payment_method_types: null },
    period_end: fields.start,
    period_start: fields.start,
    post_payment_credit_notes_amount: 0,
    pre_payment_credit_notes_amount: 0,
    receipt_number: null,
    rendering: null,
    shipping_cost: null,
    shipping_details: null,
    starting_balance: 0,
    statement_descriptor: null,
    status: 'paid',
    status_transitions: { finalized_at: fields.start, marked_uncollectible_at: null, paid_at: fields.start, voided_at: null },
    subtotal: amount,
    subtotal_excluding_tax: amount,
    test_clock: null,
    total: amount,
    total_discount_amounts: [],
    total_excluding_tax: amount,
    total_pretax_credit_amounts: [],
    total_taxes: [],
    webhooks_delivered_at: null,
  };
}

/**
 * How the pinned API ties an invoice to what paid it: an invoice payment naming the invoice and the payment intent.
 * A charge no longer names its invoice, so this is how a refunded charge of a subscription is traced to its invoice.
 */
export function stripeInvoicePayment(invoice: string, paymentIntent: string, amount = 4950): Stripe.InvoicePayment {
  const at = unixNow();
  return {
    id: stripeId('inpay'), object: 'invoice_payment', amount_paid: amount, amount_requested: amount, created: at, currency: 'usd', invoice,
    is_default: true, livemode: false, payment: { type: 'payment_intent', payment_intent: paymentIntent }, status: 'paid',
    status_transitions: { canceled_at: null, paid_at: at },
  };
}

/**
 * The session Stripe reports once the buyer has paid: `opened` (as Stripe created it) complete and paid, with the
 * buyer's details and, by mode, its payment intent (one-time) or its invoice and subscription.
 */
export function paidSession(
  opened: Stripe.Checkout.Session,
  paid: { email: string; name?: string; amountTotal: number; currency?: string } & Pick<Partial<Stripe.Checkout.Session>, 'payment_intent' | 'invoice' | 'subscription'>,
): Stripe.Checkout.Session {
  return {
    ...opened,
    status: 'complete',
    payment_status: 'paid',
    customer_details: customerDetails(paid.email, paid.name ?? null),
    amount_subtotal: paid.amountTotal,
    amount_total: paid.amountTotal,
    currency: paid.currency ?? 'usd',
    payment_intent: paid.payment_intent ?? null,
    invoice: paid.invoice ?? null,
    subscription: paid.subscription ?? null,
  };
}
