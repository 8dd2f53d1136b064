import { Entity } from 'electrodb';
import { model, primaryKey } from '../keys.js';

/**
 * One usage event, partitioned by product and UTC day: the most frequent write after validate, so a busy product's
 * events spread over one partition a day instead of one for all time, and no index copies them (1 write). A list
 * reads the days that the daily aggregates say hold events. TTL: the analytics retention.
 */
export const usageEventEntity = () =>
  new Entity({
    model: model('usageEvent'),
    attributes: {
      productId: { type: 'string', required: true },
      day: { type: 'string', required: true },
      eventId: { type: 'string', required: true },
      event: { type: 'string', required: true },
      properties: { type: 'any' },
      licenseId: { type: 'string' },
      licenseKey: { type: 'string' },
      domain: { type: 'string' },
      createdAt: { type: 'string', required: true },
      ttl: { type: 'number', required: true },
    },
    indexes: { byProductDay: primaryKey(['productId', 'day'], ['createdAt', 'eventId']) },
  });
