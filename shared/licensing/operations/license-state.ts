import { BadRequestError } from '../../platform/index.js';
import { LICENSE_MESSAGES } from './messages.js';

type LicenseState = { status: 'active' | 'expired' | 'revoked' | 'suspended'; expiresAt?: string; graceUntil?: string };

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
      return isPast(license.expiresAt, now) && !inGrace(license, now) ? LICENSE_MESSAGES.expired : undefined;
  }
}

/** A failed renewal payment's grace (DECISIONS §15) is running: the license is valid until `graceUntil`. */
export function inGrace(license: LicenseState, now: Date): boolean {
  return license.status === 'active' && license.graceUntil !== undefined && !isPast(license.graceUntil, now);
}

function isPast(timestamp: string | undefined, now: Date): boolean {
  return timestamp !== undefined && Date.parse(timestamp) <= now.getTime();
}

export function assertUsable(license: LicenseState, now: Date): void {
  const problem = licenseProblem(license, now);
  if (problem) throw new BadRequestError(problem);
}
