import { hasIdShape, NotFoundError } from '../../platform/index.js';

export const PLAN_NOT_FOUND = 'Plan not found';

/** A plan's public id (DECISIONS §10): `plan_` and the suffix of its `pln_` id. */
export const publicPlanId = (planId: string) => `plan_${planId.slice('pln_'.length)}`;

/** The `pln_` id a public (`plan_…`) or internal (`pln_…`) plan id names; anything else names no plan. */
export function planIdOf(id: string): string {
  const internal = /^plan_[a-z2-7]{24}$/.test(id) ? `pln_${id.slice('plan_'.length)}` : id;
  if (!hasIdShape('pln', internal)) throw new NotFoundError(PLAN_NOT_FOUND);
  return internal;
}

/** The link that starts a plan's checkout (DECISIONS §6), as the plans list, update checks and reminders give it. */
export const checkoutUrl = (baseUrl: string, planId: string, publicKey: string) =>
  `${baseUrl}/public/v1/checkout/${publicPlanId(planId)}?public_key=${encodeURIComponent(publicKey)}`;
