import { Entity } from 'electrodb';
import { DELIVERY_STATUSES } from '../attribute-values.js';
import { globalIndex, model, primaryKey } from '../keys.js';

export const webhookEntity = () =>
  new Entity({
    model: model('webhook'),
    attributes: {
      webhookId: { type: 'string', required: true },
      tenantId: { type: 'string', required: true },
      name: { type: 'string', required: true },
      url: { type: 'string', required: true },
      /** The signing secret, sealed (shared/platform/secrets/secret-box.ts, kind `webhook-secret`). */
      sealedSecret: { type: 'string' },
      /** The signing secret in clear: webhooks made before secrets were sealed, until their secret is regenerated. */
      secret: { type: 'string' },
      events: { type: 'list', items: { type: 'string' }, required: true },
      enabled: { type: 'boolean', required: true },
      lastTriggeredAt: { type: 'string' },
      createdAt: { type: 'string', required: true },
      updatedAt: { type: 'string', required: true },
    },
    indexes: {
      byId: primaryKey(['webhookId']),
      byTenant: globalIndex(1, ['tenantId'], ['createdAt', 'webhookId']),
    },
  });

/** One event's delivery to one webhook, with its attempts. */
export const deliveryEntity = () =>
  new Entity({
    model: model('delivery'),
    attributes: {
      deliveryId: { type: 'string', required: true },
      webhookId: { type: 'string', required: true },
      tenantId: { type: 'string', required: true },
      eventId: { type: 'string', required: true },
      eventType: { type: 'string', required: true },
      payload: { type: 'string', required: true },
      status: { type: DELIVERY_STATUSES, required: true },
      attempts: { type: 'number', required: true, default: 0 },
      responseStatus: { type: 'number' },
      /** Why the last attempt failed without an HTTP answer (refused address, timeout, connection error). */
      lastError: { type: 'string' },
      lastAttemptAt: { type: 'string' },
      nextAttemptAt: { type: 'string' },
      createdAt: { type: 'string', required: true },
    },
    indexes: {
      byId: primaryKey(['deliveryId']),
      byWebhook: globalIndex(1, ['webhookId'], ['createdAt', 'deliveryId']),
    },
  });

/**
 * The outbox: an event written in the same transaction as the change that caused it; the table's
 * stream forwards it to the fan-out, so a committed change cannot lose its event. TTL clears it later.
 */
export const outboxEventEntity = () =>
  new Entity({
    model: model('outboxEvent'),
    attributes: {
      eventId: { type: 'string', required: true },
      tenantId: { type: 'string', required: true },
      type: { type: 'string', required: true },
      data: { type: 'any', required: true },
      createdAt: { type: 'string', required: true },
      ttl: { type: 'number', required: true },
    },
    indexes: { byId: primaryKey(['eventId']) },
  });
