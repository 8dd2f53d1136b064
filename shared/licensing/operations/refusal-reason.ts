import type { AppError } from '../../platform/index.js';
import { LICENSE_MESSAGES } from './messages.js';

type LicenseMessage = keyof typeof LICENSE_MESSAGES;

/** The `reason` dimension of each license refusal: a new message does not compile until it has one. */
const REASONS: Record<LicenseMessage, string> = {
  invalidPublicKey: 'invalid_public_key',
  notFound: 'not_found',
  expired: 'expired',
  suspended: 'suspended',
  revoked: 'revoked',
  seatLimit: 'seat_limit',
  stagingLimit: 'staging_limit',
  wrongProduct: 'wrong_product',
  notCovered: 'not_covered',
  activationNotFound: 'activation_not_found',
  floating: 'floating',
  notFloating: 'not_floating',
  seatsInUse: 'seats_in_use',
  leaseNotFound: 'lease_not_found',
  noLease: 'no_lease',
};

const REASON_BY_MESSAGE = new Map<string, string>(
  Object.entries(LICENSE_MESSAGES).map(([name, message]) => [message, REASONS[name as LicenseMessage]]),
);

/** Why a license operation answered `error` (a 4xx), as a metric dimension: a license rule, a rate limit, or bad input. */
export function refusalReason(error: AppError): string {
  if (error.statusCode === 429) return 'rate_limited';
  return REASON_BY_MESSAGE.get(error.message) ?? 'invalid_input';
}
