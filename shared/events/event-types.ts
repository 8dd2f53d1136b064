/** Every event kind a webhook can subscribe to (SERVICE-SPEC §6), in the order `GET /api/webhooks` lists them. */
export const EVENT_TYPES = [
  'license.created',
  'license.activated',
  'license.deactivated',
  'license.expired',
  'license.revoked',
  'license.expiring',
  'license.transferred',
  'license.seats_exhausted',
  'lease.created',
  'lease.released',
  'lease.expired',
  'customer.created',
  'customer.updated',
  'payment.completed',
  'payment.refunded',
  'subscription.created',
  'subscription.cancelled',
  'subscription.renewed',
  'subscription.past_due',
  'customer.erased',
  'import.completed',
  'release.published',
  'release.updated',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];
