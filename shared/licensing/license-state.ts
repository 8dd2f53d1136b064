import { BadRequestError } from '../errors.js';
import { LICENSE_MESSAGES } from './messages.js';

type LicenseState = { status: 'active' | 'expired' | 'revoked' | 'suspended'; expiresAt?: string };

/**
 * Why a license cannot be used now, or undefined when it can. A passed `expiresAt` counts as expired
 * at once, before the sweep has moved the status (DECISIONS §3).
 */
export function licenseProblem(license: LicenseState, now: Date): string | undefined {
  switch (license.status) {
    case 'revoked':
      return LICENSE_MESSAGES.revoked;
    case 'suspended':
      return LICENSE_MESSAGES.suspended;
    case 'expired':
      return LICENSE_MESSAGES.expired;
    case 'active':
      return isPast(license.expiresAt, now) ? LICENSE_MESSAGES.expired : undefined;
  }
}

function isPast(timestamp: string | undefined, now: Date): boolean {
  return timestamp !== undefined && Date.parse(timestamp) <= now.getTime();
}

export function assertUsable(license: LicenseState, now: Date): void {
  const problem = licenseProblem(license, now);
  if (problem) throw new BadRequestError(problem);
}
