import type Stripe from 'stripe';
import type { EntityItem } from '../../platform/data/index.js';
import { toMinorUnits } from '../../platform/index.js';
import { logger } from '../../platform/observability/index.js';
import { stripeInterval } from '../subscriptions/plan-change-rules.js';
import { isAlreadyMade, isMissingProduct } from './provider-errors.js';

/**
 * Each plan is sold at Stripe as a product of its own (DECISIONS §20), so that a coupon restricted to plans names
 * their products (`applies_to`) and Stripe itself keeps the discount off every other plan, however the code is
 * entered. The product's id is the plan's (Stripe takes an id given to it): no record of it is kept here, it is the
 * same on whatever account the vendor connects, and it is made on an account the first time that account needs it.
 */

type PlanNaming = Pick<EntityItem<'plan'>, 'planId' | 'name'>;
type PlanTerms = PlanNaming & Pick<EntityItem<'plan'>, 'price' | 'currency' | 'billingCycle'>;

export const planProductId = (planId: string) => planId;

/** What buyers see at Stripe: the product's name and the plan's. */
const productName = (plan: PlanNaming, product: string) => `${product} – ${plan.name}`;

/** Makes the plan's product on the account; one made meanwhile by another request is as good. */
async function makePlanProduct(stripe: Stripe, plan: PlanNaming, product: string): Promise<void> {
  try {
    await stripe.products.create({ id: planProductId(plan.planId), name: productName(plan, product), metadata: { plan_id: plan.planId } });
  } catch (error) {
    if (!isAlreadyMade(error)) throw error;
  }
}

/** The plan's product on the account, named as the plan is now and on sale: updated, or made where the account lacks it. */
export async function ensurePlanProduct(stripe: Stripe, plan: PlanNaming, product: string): Promise<void> {
  try {
    await stripe.products.update(planProductId(plan.planId), { name: productName(plan, product), active: true });
  } catch (error) {
    if (!isMissingProduct(error)) throw error;
    await makePlanProduct(stripe, plan, product);
  }
}

/**
 * Runs `sell` (a Stripe call that names the plan's product) while the product is named as the plan is now, so the two
 * take one call's time; where the account lacks the product, `sell` is refused, and runs again once it is made.
 * A failure to rename alone does not stop the sale.
 */
export async function sellingPlan<T>(stripe: Stripe, plan: PlanNaming, product: string, sell: () => Promise<T>): Promise<T> {
  const naming = ensurePlanProduct(stripe, plan, product).then(
    () => undefined,
    (error: unknown) => ({ error }),
  );
  let sold: T;
  try {
    sold = await sell();
  } catch (error) {
    const failed = await naming;
    if (!isMissingProduct(error)) throw error;
    if (failed) throw failed.error;
    return sell();
  }
  if (await naming) logger.warn('Plan product not renamed at Stripe', { planId: plan.planId });
  return sold;
}

/**
 * A recurring price of the plan on its product, tagged with the plan's id (what `customer.subscription.updated` reads
 * back): a plan change names it, as Stripe's pending updates take a price, not price data.
 */
export function planPrice(stripe: Stripe, plan: PlanTerms, product: string): Promise<Stripe.Price> {
  const cycle = plan.billingCycle === 'monthly' ? 'monthly' : 'yearly';
  return sellingPlan(stripe, plan, product, () =>
    stripe.prices.create({
      product: planProductId(plan.planId),
      currency: plan.currency.toLowerCase(),
      unit_amount: toMinorUnits(plan.price, plan.currency),
      recurring: { interval: stripeInterval(cycle) },
      metadata: { plan_id: plan.planId },
    }),
  );
}
