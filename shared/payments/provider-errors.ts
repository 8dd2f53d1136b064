import { BadGatewayError, BadRequestError } from '../errors.js';

export const PROVIDER_UNAVAILABLE = 'Payment provider unavailable';
export const KEY_REFUSED = 'Stripe refused the secret key';

/** What the `stripe` package throws: its error classes carry `type` and the HTTP status Stripe answered. */
type StripeFailure = { type?: string; statusCode?: number };

/** Stripe answered 401: the key is unknown, rolled or revoked. */
export function isKeyRefused(error: unknown): boolean {
  return (error as StripeFailure)?.type === 'StripeAuthenticationError';
}

/**
 * Anything else Stripe did (unreachable, timed out, 5xx, throttled, or refused our request) is not the caller's
 * fault nor a bug to report as 500: 502 with a message that names the provider, nothing of Stripe's text.
 */
export function providerFailure(error: unknown, onKeyRefused: string): BadGatewayError | BadRequestError {
  return isKeyRefused(error) ? new BadRequestError(onKeyRefused) : new BadGatewayError(PROVIDER_UNAVAILABLE);
}
