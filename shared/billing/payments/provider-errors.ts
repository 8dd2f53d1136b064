import { BadGatewayError, BadRequestError, type DeadlineExceededError, deadlineExceededIn } from '../../platform/index.js';
import { logger } from '../../platform/observability/index.js';

export const PROVIDER_UNAVAILABLE = 'Payment provider unavailable';
export const KEY_REFUSED = 'Stripe refused the secret key';

/** What the `stripe` package throws: its error classes carry `type`, the HTTP status Stripe answered, and Stripe's code. */
type StripeFailure = { type?: string; statusCode?: number; code?: string; param?: string; requestId?: string };

/** Stripe answered 401: the key is unknown, rolled or revoked. */
export function isKeyRefused(error: unknown): boolean {
  return (error as StripeFailure)?.type === 'StripeAuthenticationError';
}

/** Stripe refused the request itself (400: a parameter it does not take, such as a used-up promotion code). */
export function isInvalidRequest(error: unknown): boolean {
  return (error as StripeFailure)?.type === 'StripeInvalidRequestError';
}

/**
 * Stripe has no such product on the account: asked for (404), or named by a parameter that ends in `product` (a price's
 * `product`, a line item's `price_data[product]`).
 */
export function isMissingProduct(error: unknown): boolean {
  const { code, param } = (error ?? {}) as StripeFailure;
  return isInvalidRequest(error) && code === 'resource_missing' && (param === undefined || /product\]?$/.test(param));
}

/** Stripe already has an object of the id asked for (made meanwhile by another request). */
export function isAlreadyMade(error: unknown): boolean {
  return isInvalidRequest(error) && (error as StripeFailure).code === 'resource_already_exists';
}

/**
 * Anything else Stripe did (unreachable, timed out, 5xx, throttled, or refused our request) is not the caller's
 * fault nor a bug to report as 500: 502 with a message that names the provider, nothing of Stripe's text. A call the
 * request's deadline cut short is the deadline's 503 (shared/platform/deadline.ts).
 */
export function providerFailure(error: unknown, onKeyRefused: string): BadGatewayError | BadRequestError | DeadlineExceededError {
  if (isKeyRefused(error)) return new BadRequestError(onKeyRefused);
  const late = deadlineExceededIn(error);
  if (late) return late;
  // A 502 is an AppError, so the error handler does not log it: said here, by Stripe's fields only (no message, which may quote input).
  const { type, statusCode, code, requestId } = error as StripeFailure;
  logger.warn('Payment provider call failed', { stripe: { type, statusCode, code, requestId } });
  return new BadGatewayError(PROVIDER_UNAVAILABLE);
}
