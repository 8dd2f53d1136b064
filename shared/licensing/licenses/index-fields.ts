import type { LicenseItem } from './license-view.js';

/**
 * Every composite attribute of the license's secondary indexes. A patch that changes one of them
 * (status, customerEmail) passes them all, so ElectroDB can rebuild each affected index key.
 */
export function indexFields(license: LicenseItem) {
  const { licenseId, tenantId, productId, status, customerEmail, createdAt } = license;
  return { licenseId, tenantId, productId, status, customerEmail, createdAt };
}
