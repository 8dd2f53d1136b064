import { Entity } from 'electrodb';
import { model, primaryKey } from '../keys.js';

/**
 * A license's next renewal reminder to look at (shared/licensing/licenses/renewal-reminders.ts), in the expiry item's shard
 * partition, sorted by `remindAt`: the sweep range-queries `remindAt <= now` per shard, as it does for expiry. Put
 * beside the expiry item whenever a license becomes active with a new `expiresAt`, at `expiresAt` − 60 days (the
 * largest reminder day a product may list), so writing it needs no product. The sweep moves it to the product's next
 * reminder day in the transaction that sends a reminder, conditioned on it still being there, and deletes it when
 * none is left or the license no longer matches (`expiresAt` changed, not active, deleted).
 */
export const licenseReminderEntity = () =>
  new Entity({
    model: model('licenseReminder'),
    attributes: {
      shard: { type: 'string', required: true },
      remindAt: { type: 'string', required: true },
      licenseId: { type: 'string', required: true },
      tenantId: { type: 'string', required: true },
      productId: { type: 'string', required: true },
      /** The expiry the reminders are for: one that no longer is the license's makes the item stale. */
      expiresAt: { type: 'string', required: true },
    },
    indexes: { byDue: primaryKey(['shard'], ['remindAt', 'licenseId']) },
  });

/**
 * That one reminder was sent: a license's reminder for one expiry and one day, created in the reminder's transaction
 * only if absent, so two sweeps (or two reminder items of the same expiry) never both send it. TTL: the expiry plus 90 days.
 */
export const renewalReminderSentEntity = () =>
  new Entity({
    model: model('renewalReminderSent'),
    attributes: {
      shard: { type: 'string', required: true },
      licenseId: { type: 'string', required: true },
      expiresAt: { type: 'string', required: true },
      day: { type: 'number', required: true },
      tenantId: { type: 'string', required: true },
      sentAt: { type: 'string', required: true },
      ttl: { type: 'number', required: true },
    },
    indexes: { byReminder: primaryKey(['shard'], ['licenseId', 'expiresAt', 'day']) },
  });
