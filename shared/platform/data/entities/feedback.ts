import { Entity } from 'electrodb';
import { FEEDBACK_TYPES } from '../attribute-values.js';
import { model, productRecordsKey } from '../keys.js';

/**
 * Feedback an installed product sent, in its product's partition, newest last: the vendor's inbox is one Query
 * of that partition backwards (a `type` filter reads the others and drops them: feedback is rare). TTL: the
 * analytics retention.
 */
export const feedbackEntity = () =>
  new Entity({
    model: model('feedback'),
    attributes: {
      productId: { type: 'string', required: true },
      feedbackId: { type: 'string', required: true },
      type: { type: FEEDBACK_TYPES, required: true },
      message: { type: 'string', required: true },
      email: { type: 'string' },
      /** Only when the key given is one of the product's licenses. */
      licenseId: { type: 'string' },
      licenseKey: { type: 'string' },
      domain: { type: 'string' },
      metadata: { type: 'any' },
      createdAt: { type: 'string', required: true },
      ttl: { type: 'number', required: true },
    },
    indexes: { byProduct: productRecordsKey(['createdAt', 'feedbackId']) },
  });
