import { Entity } from 'electrodb';
import { PAYMENT_PROVIDERS } from '../attribute-values.js';
import { model, primaryKey } from '../keys.js';

/**
 * A tenant's connected payment provider, keyed by the tenant (the developer's user id) so that checkout and the
 * provider's webhook route (`/v1/webhooks/stripe/{userId}`) find it in one read. The secrets are sealed
 * (shared/platform/secrets/secret-box.ts) with the tenant id as context; they are never returned or logged.
 */
export const paymentProviderEntity = () =>
  new Entity({
    model: model('paymentProvider'),
    attributes: {
      tenantId: { type: 'string', required: true },
      provider: { type: PAYMENT_PROVIDERS, required: true },
      sealedSecretKey: { type: 'string', required: true },
      sealedWebhookSecret: { type: 'string', required: true },
      connectedAt: { type: 'string', required: true },
      /** How license e-mails name the vendor and where buyers' replies go (absent on connections made before). */
      sellerName: { type: 'string' },
      replyTo: { type: 'string' },
      /** Stripe Tax on every checkout session, and buyers' tax ids collected (DECISIONS §15); absent: false. */
      automaticTax: { type: 'boolean' },
      taxIdCollection: { type: 'boolean' },
    },
    indexes: { byTenant: primaryKey(['tenantId']) },
  });
