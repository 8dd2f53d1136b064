import { Entity } from 'electrodb';
import { model, primaryKey } from '../keys.js';
import { MAIL_SEND_STATE } from './mail.js';

/**
 * The e-mail that delivers a purchased license to its buyer, keyed by the license: written in the purchase's
 * transaction (so it exists exactly when the license does, and only once however often Stripe replays the
 * event), carried to the mail queue by the table's stream, and claimed by the sender before each attempt.
 * It holds what the e-mail says, as it was at the sale, so the sender reads this one item. TTL: kept 30 days.
 */
export const licenseMailEntity = () =>
  new Entity({
    model: model('licenseMail'),
    attributes: {
      licenseId: { type: 'string', required: true },
      tenantId: { type: 'string', required: true },
      to: { type: 'string', required: true },
      customerName: { type: 'string' },
      productName: { type: 'string', required: true },
      licenseKey: { type: 'string', required: true },
      seats: { type: 'number', required: true },
      /** Absent for a lifetime license. */
      expiresAt: { type: 'string' },
      /** The license runs with a subscription: its expiry is a renewal date. */
      renews: { type: 'boolean', required: true },
      /** The vendor as the buyer knows them, and where replies go (the payment provider's settings). */
      sellerName: { type: 'string' },
      replyTo: { type: 'string' },
      /** A Composer-enabled product's package (`vendor/slug`) and repository address (DECISIONS §24); absent otherwise. */
      composerPackage: { type: 'string' },
      composerRepository: { type: 'string' },
      /** The vendor's hosted customer portal, when it is on (DECISIONS §25). */
      portalUrl: { type: 'string' },
      ...MAIL_SEND_STATE,
      createdAt: { type: 'string', required: true },
      ttl: { type: 'number', required: true },
    },
    indexes: { byLicense: primaryKey(['licenseId']) },
  });
