import { Entity } from 'electrodb';
import { model, primaryKey } from '../keys.js';

/**
 * The one no-card trial of an e-mail for a product (DECISIONS §15), keyed by the address's claim form (DECISIONS §20:
 * lower-cased, no `+tag`, no dots at Gmail; shared/billing/trials/claim-address.ts): created only if absent, in the
 * transaction that issues the trial's license. A later paid checkout with the e-mail continues that license
 * (`convertedAt` set in the purchase's transaction, on the condition it was not yet: one purchase continues it).
 */
export const trialClaimEntity = () =>
  new Entity({
    model: model('trialClaim'),
    attributes: {
      productId: { type: 'string', required: true },
      email: { type: 'string', required: true },
      tenantId: { type: 'string', required: true },
      licenseId: { type: 'string', required: true },
      planId: { type: 'string', required: true },
      startedAt: { type: 'string', required: true },
      convertedAt: { type: 'string' },
    },
    indexes: { byEmail: primaryKey(['productId', 'email']) },
  });
