import type { LicenseItem } from '../../licensing/licenses/license-view.js';

/**
 * The license a record names, when it is the product's. A key of another product is dropped, never refused, so a
 * caller learns nothing of keys.
 */
export function ownLicense(license: Pick<LicenseItem, 'licenseId' | 'licenseKey' | 'productId'>, productId: string) {
  return license.productId === productId ? { licenseId: license.licenseId, licenseKey: license.licenseKey } : undefined;
}
