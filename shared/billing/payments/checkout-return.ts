import { type Deps, NotFoundError } from '../../platform/index.js';

export const SESSION_NOT_FOUND = 'Checkout session not found';

/** Stripe's Checkout Session ids: `cs_test_…` or `cs_live_…`. Another shape names no session and costs no read. */
const SESSION_ID = /^cs_(test|live)_[A-Za-z0-9]{1,250}$/;

/** Where a buyer goes back: their `return_url` with the license key, or the pending flag; none: the thank-you page. */
export type CheckoutReturn = { kind: 'redirect'; location: string } | { kind: 'page' };

/**
 * The way back from Stripe's hosted checkout (DECISIONS §6). The session's item (written when checkout opened it)
 * holds the buyer's `return_url` and parameter names, and the license key once the Stripe webhook issued it, so
 * the answer needs no call to Stripe: the page a buyer lands on after paying does not depend on Stripe being up.
 * Strongly consistent: a key issued a moment ago is shown rather than "pending".
 */
export async function checkoutReturn(deps: Pick<Deps, 'data'>, sessionId: string): Promise<CheckoutReturn> {
  const item = SESSION_ID.test(sessionId) ? (await deps.data.entities.checkoutSession.get({ checkoutSessionId: sessionId }).go({ consistent: true })).data : undefined;
  if (!item) throw new NotFoundError(SESSION_NOT_FOUND);
  if (!item.returnUrl) return { kind: 'page' };
  // The return URL keeps its own query; ours is added (replacing a parameter of the same name).
  const location = new URL(item.returnUrl);
  if (item.licenseKey) location.searchParams.set(item.activateParam, item.licenseKey);
  else location.searchParams.set(item.pendingParam, '1');
  return { kind: 'redirect', location: location.toString() };
}
