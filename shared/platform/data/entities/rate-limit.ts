import { Entity } from 'electrodb';
import { model, primaryKey } from '../keys.js';

/**
 * A token bucket (shared/platform/rate-limits) kept as the one number GCRA needs: the bucket's theoretical arrival
 * time `tat` in epoch milliseconds. A full bucket is an absent item, or one whose `tat` has passed; TTL
 * clears it some time after that.
 */
export const rateLimitEntity = () =>
  new Entity({
    model: model('rateLimit'),
    attributes: {
      /** `<limit>#<caller>`, e.g. `activation-key#WIDGET-…` or `login-address#203.0.113.9`. */
      bucket: { type: 'string', required: true },
      tat: { type: 'number', required: true },
      ttl: { type: 'number', required: true },
    },
    indexes: { byBucket: primaryKey(['bucket']) },
  });
