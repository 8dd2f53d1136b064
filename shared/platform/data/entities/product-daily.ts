import { Entity } from 'electrodb';
import { model, productRecordsKey } from '../keys.js';

export const DAILY_METRICS = ['event', 'feedback', 'reason', 'installs', 'version'] as const;
export type DailyMetric = (typeof DAILY_METRICS)[number];

/**
 * A product's count of one thing on one UTC day: events by name, feedback by type, deactivation reasons, distinct
 * active installs (`installs`, named `all`) and installs by product version. Bumped (`ADD`) by the write it counts;
 * a date range of every metric is one Query of the product's partition. Kept without expiry: a few small items a day.
 */
export const productDailyEntity = () =>
  new Entity({
    model: model('productDaily'),
    attributes: {
      productId: { type: 'string', required: true },
      day: { type: 'string', required: true },
      metric: { type: DAILY_METRICS, required: true },
      name: { type: 'string', required: true },
      count: { type: 'number', required: true, default: 0 },
    },
    indexes: { byProduct: productRecordsKey(['day', 'metric', 'name']) },
  });
