import { Entity } from 'electrodb';
import { model, primaryKey } from '../keys.js';

/**
 * A Checkout Session the public API opened, keyed by Stripe's session id: the return route finds the tenant, the
 * buyer's `return_url` and parameter names here, and the license key once issued. The Stripe webhook (issuing the
 * license) sets `licenseKey`; until then the buyer is sent back as pending. TTL: kept 30 days.
 */
export const checkoutSessionEntity = () =>
  new Entity({
    model: model('checkoutSession'),
    attributes: {
      checkoutSessionId: { type: 'string', required: true },
      tenantId: { type: 'string', required: true },
      productId: { type: 'string', required: true },
      planId: { type: 'string', required: true },
      returnUrl: { type: 'string' },
      activateParam: { type: 'string', required: true },
      pendingParam: { type: 'string', required: true },
      licenseKey: { type: 'string' },
      createdAt: { type: 'string', required: true },
      ttl: { type: 'number', required: true },
    },
    indexes: { byId: primaryKey(['checkoutSessionId']) },
  });
