import type { TransactionEntities } from '../data/service.js';
import type { LicenseItem } from '../licenses/license-view.js';

/** Long enough to trace a buyer's "I never got my key" after the sale. */
const LICENSE_MAIL_RETENTION_SECONDS = 30 * 24 * 3600;

export type LicenseMailContent = {
  license: LicenseItem;
  productName: string;
  /** The license runs with a subscription: its expiry is a renewal date. */
  renews: boolean;
  seller: { name?: string; replyTo?: string };
};

/**
 * The transaction item that queues a license's e-mail to its buyer: put it in the transaction that issues the
 * license, and the e-mail exists exactly when the license does. Created only if absent: one e-mail per license.
 */
export function licenseMailItem(mail: TransactionEntities['licenseMail'], content: LicenseMailContent, now: Date) {
  const { license } = content;
  return mail
    .create({
      licenseId: license.licenseId,
      tenantId: license.tenantId,
      to: license.customerEmail,
      customerName: license.customerName,
      productName: content.productName,
      licenseKey: license.licenseKey,
      seats: license.seats,
      expiresAt: license.expiresAt,
      renews: content.renews,
      sellerName: content.seller.name,
      replyTo: content.seller.replyTo,
      status: 'pending',
      attempts: 0,
      createdAt: now.toISOString(),
      ttl: Math.floor(now.getTime() / 1000) + LICENSE_MAIL_RETENTION_SECONDS,
    })
    .commit();
}
