/** The public surface of the portal context: what other contexts and the functions use of it (docs/architecture.md). */
export { SUBSCRIPTION_NOT_FOUND, cancelSubscription } from './cancel-subscription.js';
export { changePortalPlan } from './change-plan.js';
export { exportCustomer } from './customer-data/customer-export.js';
export type { CustomerExport } from './customer-data/customer-export.js';
export { eraseCustomer } from './customer-data/erasure.js';
export type { ErasedCustomer } from './customer-data/erasure.js';
export { getCustomer } from './customer-data/get-customer.js';
export type { PortalScope } from './customer-scope.js';
export { createLinkSecret } from './link-secret.js';
export type { LinkSecret } from './link-secret.js';
export { portalDownloads, signedDownload } from './portal-downloads.js';
export { portalInvoices, portalLicenses, portalOverview, portalSubscriptions } from './portal-reads.js';
