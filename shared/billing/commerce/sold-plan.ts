import type Stripe from 'stripe';
import { BILLING_CYCLES, type EntityItem } from '../../platform/data/index.js';
import { type Channel, CHANNELS } from '../../catalog/index.js';

/**
 * The plan as checkout sold it: its id, name, term, price, seats and release channel. Checkout writes it into the Stripe session's
 * metadata when it opens the session, and the purchase issues the license from it, so a plan edited or deleted
 * between the two changes nothing of what the buyer paid for.
 */
export type SoldPlan = Pick<EntityItem<'plan'>, 'planId' | 'name' | 'billingCycle' | 'price' | 'currency' | 'siteLimit' | 'channel'>;

type BillingCycle = SoldPlan['billingCycle'];

/** The metadata entries of a sold plan (Stripe keeps metadata values as strings). */
export function soldPlanMetadata(plan: SoldPlan) {
  return {
    plan_id: plan.planId,
    plan_name: plan.name,
    billing_cycle: plan.billingCycle,
    price: String(plan.price),
    currency: plan.currency,
    seats: String(plan.siteLimit),
    ...(plan.channel && { channel: plan.channel }),
  };
}

const isChannel = (value: string | undefined): value is Channel => CHANNELS.includes(value as Channel);
const isBillingCycle = (value: string | undefined): value is BillingCycle => BILLING_CYCLES.includes(value as BillingCycle);
/** A decimal as `String(number)` writes it: a price of at most two decimals, or a whole count. */
const DECIMAL = /^\d{1,9}(\.\d{1,2})?$/;

/** The sold plan a session's metadata carries; undefined when an entry is missing or not what checkout writes. */
export function soldPlan(session: Pick<Stripe.Checkout.Session, 'metadata'>): SoldPlan | undefined {
  const { plan_id: planId, plan_name: name, billing_cycle: billingCycle, price, currency, seats, channel } = session.metadata ?? {};
  if (!planId || !name || !isBillingCycle(billingCycle) || !currency || !/^[A-Z]{3}$/.test(currency)) return undefined;
  if (!price || !DECIMAL.test(price) || !seats || !/^[1-9]\d{0,8}$/.test(seats)) return undefined;
  // Sessions opened before plans had channels carry none: their licenses are on `stable`.
  if (channel !== undefined && !isChannel(channel)) return undefined;
  return { planId, name, billingCycle, price: Number(price), currency, siteLimit: Number(seats), ...(channel && { channel }) };
}
