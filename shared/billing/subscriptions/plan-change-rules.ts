import { DEFAULT_PLAN_CHANGE_PRORATION, type PlanChangeProration } from '../../catalog/index.js';
import type { EntityItem } from '../../platform/data/index.js';

type PlanTerms = Pick<EntityItem<'plan'>, 'billingCycle' | 'price'>;
type RecurringCycle = 'monthly' | 'yearly';

const MONTHS: Record<RecurringCycle, number> = { monthly: 1, yearly: 12 };

/** Stripe's interval for a recurring plan's cycle. */
export const stripeInterval = (cycle: RecurringCycle) => (cycle === 'monthly' ? ('month' as const) : ('year' as const));

/**
 * DECISIONS §15: an upgrade is a longer interval, or (on the same interval) a higher price per year. A move to the same
 * price and interval counts as an upgrade: nothing is owed either way, so it applies at once.
 */
export function isUpgrade(from: PlanTerms, to: PlanTerms): boolean {
  const fromMonths = MONTHS[from.billingCycle as RecurringCycle];
  const toMonths = MONTHS[to.billingCycle as RecurringCycle];
  if (toMonths !== fromMonths) return toMonths > fromMonths;
  return to.price >= from.price;
}

/** When a change takes effect and how Stripe prorates it. */
export type PlanChangeTiming = { at: 'now'; prorationBehavior: 'always_invoice' | 'create_prorations' | 'none' } | { at: 'periodEnd'; prorationBehavior: 'none' };

/** The product's `planChangeProration` applied to one change (DECISIONS §15). */
export function planChangeTiming(proration: PlanChangeProration | undefined, from: PlanTerms, to: PlanTerms): PlanChangeTiming {
  switch (proration ?? DEFAULT_PLAN_CHANGE_PRORATION) {
    case 'prorateAll':
      return { at: 'now', prorationBehavior: 'create_prorations' };
    case 'none':
      return { at: 'now', prorationBehavior: 'none' };
    case 'upgradeNowDowngradeAtRenewal':
      return isUpgrade(from, to) ? { at: 'now', prorationBehavior: 'always_invoice' } : { at: 'periodEnd', prorationBehavior: 'none' };
  }
}

export const tooManySites = (active: number, allowed: number) => `Deactivate sites first: ${active} active, the plan allows ${allowed}`;
