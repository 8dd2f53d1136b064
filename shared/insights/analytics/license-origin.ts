import type { Deps } from '../../platform/index.js';

/**
 * The license a record names, when it is the product's. A key of another product is dropped, never refused, so a
 * caller learns nothing of keys.
 */
export function ownLicense(license: { licenseId: string; licenseKey: string; productId: string }, productId: string) {
  return license.productId === productId ? { licenseId: license.licenseId, licenseKey: license.licenseKey } : undefined;
}

/** Raw records expire after the configured retention (the table's TTL removes them); their daily counts stay. */
export function expiry(deps: Pick<Deps, 'config'>, at: Date): number {
  return Math.floor(at.getTime() / 1000) + deps.config.analytics.retentionDays * 86_400;
}
