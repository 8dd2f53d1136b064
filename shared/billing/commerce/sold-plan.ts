import type Stripe from 'stripe';
import { BILLING_CYCLES, type EntityItem } from '../../platform/data/index.js';
import { type Channel, CHANNELS, FEATURE_KEY_PATTERN } from '../../catalog/index.js';

/**
 * The plan as checkout sold it: its id, name, term, price, seats and release channel. Checkout writes it into the Stripe session's
 * metadata when it opens the session, and the purchase issues the license from it, so a plan edited or deleted
 * between the two changes nothing of what the buyer paid for.
 */
export type SoldPlan = Pick<EntityItem<'plan'>, 'planId' | 'name' | 'billingCycle' | 'price' | 'currency' | 'siteLimit' | 'channel' | 'features'>;

/** Stripe keeps at most 500 characters in a metadata value: feature keys go in as many `features`, `features_2`, … as they need. */
const METADATA_VALUE_LENGTH = 500;
const featuresEntry = (index: number) => (index === 0 ? 'features' : `features_${index + 1}`);

/** The comma-separated feature keys, in values of at most 500 characters (a key is at most 64). */
function featureEntries(features: readonly string[]): Record<string, string> {
  const values: string[] = [];
  for (const key of features) {
    const last = values.length - 1;
    if (last >= 0 && values[last]!.length + 1 + key.length <= METADATA_VALUE_LENGTH) values[last] += `,${key}`;
    else values.push(key);
  }
  return Object.fromEntries(values.map((value, index) => [featuresEntry(index), value]));
}

/** The feature keys a session's metadata carries; undefined when one is not a key. */
function featuresOf(metadata: Record<string, string>): string[] | undefined {
  const keys: string[] = [];
  for (let index = 0; metadata[featuresEntry(index)] !== undefined; index++) keys.push(...metadata[featuresEntry(index)]!.split(','));
  return keys.every((key) => FEATURE_KEY_PATTERN.test(key)) ? keys : undefined;
}

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
    ...featureEntries(plan.features ?? []),
  };
}

const isChannel = (value: string | undefined): value is Channel => CHANNELS.includes(value as Channel);
const isBillingCycle = (value: string | undefined): value is BillingCycle => BILLING_CYCLES.includes(value as BillingCycle);
/** A decimal as `String(number)` writes it: a price of at most two decimals, or a whole count. */
const DECIMAL = /^\d{1,9}(\.\d{1,2})?$/;

/** The sold plan a session's metadata carries; undefined when an entry is missing or not what checkout writes. */
export function soldPlan(session: Pick<Stripe.Checkout.Session, 'metadata'>): SoldPlan | undefined {
  const metadata = session.metadata ?? {};
  const { plan_id: planId, plan_name: name, billing_cycle: billingCycle, price, currency, seats, channel } = metadata;
  if (!planId || !name || !isBillingCycle(billingCycle) || !currency || !/^[A-Z]{3}$/.test(currency)) return undefined;
  if (!price || !DECIMAL.test(price) || !seats || !/^[1-9]\d{0,8}$/.test(seats)) return undefined;
  // Sessions opened before plans had channels carry none: their licenses are on `stable`.
  if (channel !== undefined && !isChannel(channel)) return undefined;
  // Sessions opened before plans had features carry none (DECISIONS §23).
  const features = featuresOf(metadata);
  if (!features) return undefined;
  return { planId, name, billingCycle, price: Number(price), currency, siteLimit: Number(seats), ...(channel && { channel }), features };
}
