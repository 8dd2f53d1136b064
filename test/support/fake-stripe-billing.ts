import type Stripe from 'stripe';
import { updatedSubscription } from './stripe-lifecycle-objects.js';
import { stripeInvoice } from './stripe-objects.js';

/**
 * How the fake Stripe bills a subscription update, as Stripe documents it (billing/subscriptions/prorations,
 * billing/subscriptions/pending-updates): a price change on the same interval is prorated by the seconds left of the
 * period (the unused time of the old price credited, the rest of the new one charged), invoiced at once only under
 * `always_invoice`; a change of interval starts a new period now and invoices it at once (less the credit, unless
 * `proration_behavior: none`). An invoice the buyer's card declines leaves, by `payment_behavior`: the change applied
 * and the subscription `past_due` (`allow_incomplete`, Stripe's default), nothing changed and the change held in
 * `pending_update` until the invoice is paid (`pending_if_incomplete`), or a 402 (`error_if_incomplete`). Any later
 * update discards a pending one (its invoice voided).
 */

type Form = Record<string, any>;
type Item = Stripe.SubscriptionItem;

/** What Stripe answers an update with and the invoice it made, or its refusal. */
export type SubscriptionChange = { subscription: Stripe.Subscription; invoice?: Stripe.Invoice } | { refusal: Stripe.StripeRawError & { status: number } };

const INTERVAL_SECONDS: Record<Stripe.Price.Recurring.Interval, number> = { day: 86_400, week: 7 * 86_400, month: 30 * 86_400, year: 365 * 86_400 };
/** Stripe gives a pending update this long at most (or until the period ends, if sooner). */
const PENDING_UPDATE_SECONDS = 23 * 3600;

/** The invoice an update makes now, if any: its amount (minor units) and the period it starts (a new interval's). */
function updateInvoice(before: Item, after: Item, behavior: string, now: number): { amount: number; period?: { start: number; end: number } } | undefined {
  if (before.price.id === after.price.id) return undefined;
  const remaining = Math.max(0, before.current_period_end - now) / (before.current_period_end - before.current_period_start);
  const credit = behavior === 'none' ? 0 : Math.round((before.price.unit_amount ?? 0) * remaining);
  const interval = after.price.recurring?.interval ?? 'year';
  if (interval !== before.price.recurring?.interval) {
    return { amount: Math.max(0, (after.price.unit_amount ?? 0) - credit), period: { start: now, end: now + INTERVAL_SECONDS[interval] } };
  }
  if (behavior !== 'always_invoice') return undefined;
  return { amount: Math.max(0, Math.round((after.price.unit_amount ?? 0) * remaining) - credit) };
}

/** A subscription update's invoice (`billing_reason: subscription_update`): paid, or open when the card declined. */
function prorationInvoice(subscription: string, amount: number, paid: boolean, now: number, periodEnd: number): Stripe.Invoice {
  const invoice = stripeInvoice({ subscription, billingReason: 'subscription_update', start: now, end: periodEnd, amountPaid: amount });
  const lines = invoice.lines.data.map((line) => ({
    ...line,
    parent: line.parent && { ...line.parent, subscription_item_details: line.parent.subscription_item_details && { ...line.parent.subscription_item_details, proration: true } },
  }));
  return {
    ...invoice,
    lines: { ...invoice.lines, data: lines },
    amount_paid: paid ? amount : 0,
    amount_remaining: paid ? 0 : amount,
    status: paid ? 'paid' : 'open',
    status_transitions: { ...invoice.status_transitions, paid_at: paid ? now : null },
  };
}

/** `POST /v1/subscriptions/{id}` with `params` (`price`: the Price its item names, if it names one), billed as Stripe bills it. */
export function changeSubscription(current: Stripe.Subscription, params: Form, input: { price?: Stripe.Price; declines: boolean; now: number }): SubscriptionChange {
  const { now } = input;
  const base: Stripe.Subscription = { ...current, pending_update: null };
  let next = updatedSubscription(base, params, input.price);
  const before = base.items.data[0]!;
  const trialing = base.status === 'trialing' || params.trial_end !== undefined;
  const billed = trialing ? undefined : updateInvoice(before, next.items.data[0]!, params.proration_behavior ?? 'create_prorations', now);
  if (!billed) return { subscription: next };
  if (billed.period) {
    const [item] = next.items.data;
    next = { ...next, billing_cycle_anchor: billed.period.start, items: { ...next.items, data: [{ ...item!, current_period_start: billed.period.start, current_period_end: billed.period.end }] } };
  }
  const periodEnd = next.items.data[0]!.current_period_end;
  const paid = billed.amount === 0 || !input.declines;
  const invoice = prorationInvoice(base.id, billed.amount, paid, now, periodEnd);
  if (paid) return { subscription: { ...next, latest_invoice: invoice.id }, invoice };
  switch (params.payment_behavior ?? 'allow_incomplete') {
    case 'pending_if_incomplete':
      return {
        subscription: {
          ...base,
          latest_invoice: invoice.id,
          pending_update: {
            billing_cycle_anchor: billed.period?.start ?? null,
            cancel_at_period_end: null,
            discount: null,
            discounts: null,
            expires_at: Math.min(before.current_period_end, now + PENDING_UPDATE_SECONDS),
            metadata: params.metadata ?? null,
            subscription_items: next.items.data,
            trial_end: null,
            trial_from_plan: null,
          },
        },
        invoice,
      };
    case 'error_if_incomplete':
      return { refusal: { status: 402, type: 'card_error', code: 'card_declined', message: 'Your card was declined.' } };
    default:
      return { subscription: { ...next, status: 'past_due', latest_invoice: invoice.id }, invoice };
  }
}

/** The subscription once its pending update's invoice is paid: the update applied (its metadata merged), nothing pending. */
export function withPendingUpdateApplied(subscription: Stripe.Subscription): Stripe.Subscription {
  const pending = subscription.pending_update;
  if (!pending) return { ...subscription, status: subscription.status === 'past_due' ? 'active' : subscription.status };
  return {
    ...subscription,
    items: { ...subscription.items, data: pending.subscription_items ?? subscription.items.data },
    metadata: { ...subscription.metadata, ...(pending.metadata ?? {}) },
    ...(pending.billing_cycle_anchor && { billing_cycle_anchor: pending.billing_cycle_anchor }),
    pending_update: null,
    status: 'active',
  };
}
