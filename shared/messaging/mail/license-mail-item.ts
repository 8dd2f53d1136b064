import type { EntityItem, TransactionEntities } from '../../platform/data/index.js';
import { pendingMarker } from '../outbox/pending.js';

/** Long enough to trace a buyer's "I never got my key" after the sale. */
const LICENSE_MAIL_RETENTION_SECONDS = 30 * 24 * 3600;

export type LicenseMailContent = {
  license: EntityItem<'license'>;
  productName: string;
  /** The license runs with a subscription: its expiry is a renewal date. */
  renews: boolean;
  seller: { name?: string; replyTo?: string };
  /** A Composer-enabled product: how the buyer installs it with Composer. */
  composer?: { packageName: string; repositoryUrl: string };
  /** The vendor's hosted customer portal, when it is on (shared/messaging/mail/portal-link.ts). */
  portalUrl?: string;
};

/**
 * The transaction items that queue a license's e-mail to its buyer, and mark it pending until it is forwarded: put
 * them in the transaction that issues the license, and the e-mail exists exactly when the license does. Created only
 * if absent: one e-mail per license.
 */
export function licenseMailItem(tx: Pick<TransactionEntities, 'licenseMail' | 'outboxPending'>, content: LicenseMailContent, now: Date) {
  const { license } = content;
  const createdAt = now.toISOString();
  const ttl = Math.floor(now.getTime() / 1000) + LICENSE_MAIL_RETENTION_SECONDS;
  return [
    tx.licenseMail
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
        composerPackage: content.composer?.packageName,
        composerRepository: content.composer?.repositoryUrl,
        portalUrl: content.portalUrl,
        status: 'pending',
        attempts: 0,
        createdAt,
        ttl,
      })
      .commit(),
    pendingMarker(tx, { kind: 'licenseMail', itemId: license.licenseId, tenantId: license.tenantId, createdAt, ttl }),
  ];
}
