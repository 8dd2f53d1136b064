import { Entity } from 'electrodb';
import { model, productRecordsKey } from '../keys.js';

/** Why a site deactivated the product (sent by the plugin), in the product's partition as feedback is. TTL: the analytics retention. */
export const deactivationReasonEntity = () =>
  new Entity({
    model: model('deactivationReason'),
    attributes: {
      productId: { type: 'string', required: true },
      reasonId: { type: 'string', required: true },
      reason: { type: 'string', required: true },
      details: { type: 'string' },
      licenseId: { type: 'string' },
      licenseKey: { type: 'string' },
      domain: { type: 'string' },
      createdAt: { type: 'string', required: true },
      ttl: { type: 'number', required: true },
    },
    indexes: { byProduct: productRecordsKey(['createdAt', 'reasonId']) },
  });
