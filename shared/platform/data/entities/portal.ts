import { Entity } from 'electrodb';
import { model, primaryKey } from '../keys.js';

/**
 * A vendor's hosted customer portal (DECISIONS §25), keyed by the tenant: whether it is on, and how it shows the
 * vendor. Absent: off.
 */
export const portalSettingsEntity = () =>
  new Entity({
    model: model('portalSettings'),
    attributes: {
      tenantId: { type: 'string', required: true },
      enabled: { type: 'boolean', required: true },
      /** The name the portal shows; absent: the seller name of the payment provider, else the account's name. */
      name: { type: 'string' },
      logoUrl: { type: 'string' },
      /** `#rrggbb`. */
      accentColor: { type: 'string' },
      supportEmail: { type: 'string' },
      updatedAt: { type: 'string', required: true },
    },
    indexes: { byTenant: primaryKey(['tenantId']) },
  });

/**
 * A one-time portal sign-in link, keyed by the SHA-256 of its token (the token is only in the e-mail): the customer
 * (`tenantId`, `email`) it signs in, and the product page it opens (`publicKey`). Taken by one conditional delete while
 * `ttl` is ahead: used once. TTL 15 minutes. A vendor's "View as customer" link (`preview`, issue 51) is one too: 5
 * minutes, taken only into a read-only preview session, and the e-mailed link's sign-in never takes it.
 */
export const portalSignInEntity = () =>
  new Entity({
    model: model('portalSignIn'),
    attributes: {
      signInHash: { type: 'string', required: true },
      tenantId: { type: 'string', required: true },
      email: { type: 'string', required: true },
      publicKey: { type: 'string', required: true },
      /** `true`: a preview link made in the dashboard (`POST /api/customers/{id}/portal-preview`); absent: an e-mailed sign-in link. */
      preview: { type: 'boolean' },
      /** A preview link's customer: its audit entry's target, and whose key seals the e-mail the entry records. */
      customerId: { type: 'string' },
      createdAt: { type: 'string', required: true },
      /** Epoch seconds: past it the link is refused, and DynamoDB's TTL removes the item. */
      ttl: { type: 'number', required: true },
    },
    indexes: { byToken: primaryKey(['signInHash']) },
  });

/**
 * A buyer's portal session, keyed by the SHA-256 of its cookie's token: one customer (`tenantId`, `email`) of one
 * vendor, and the product page it was opened on. TTL 7 days; a vendor's preview of the customer's portal (`preview`), 1 hour.
 */
export const portalSessionEntity = () =>
  new Entity({
    model: model('portalSession'),
    attributes: {
      portalSessionHash: { type: 'string', required: true },
      tenantId: { type: 'string', required: true },
      email: { type: 'string', required: true },
      publicKey: { type: 'string', required: true },
      /** `true`: the vendor viewing the portal as the customer, which shows everything and changes nothing. */
      preview: { type: 'boolean' },
      createdAt: { type: 'string', required: true },
      /** Epoch seconds: past it the session is refused, and DynamoDB's TTL removes the item. */
      ttl: { type: 'number', required: true },
    },
    indexes: { byToken: primaryKey(['portalSessionHash']) },
  });
