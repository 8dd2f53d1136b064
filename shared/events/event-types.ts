/** Every event kind a webhook can subscribe to (SERVICE-SPEC §6), in the order `GET /api/webhooks` lists them. */
export const EVENT_TYPES = [
  'license.created',
  'license.activated',
  'license.deactivated',
  'license.expired',
  'license.revoked',
  'customer.created',
  'customer.updated',
  'payment.completed',
  'payment.refunded',
  'subscription.created',
  'subscription.cancelled',
  'subscription.renewed',
  'subscription.updated',
  'license.updated',
  'customer.erased',
  'import.completed',
  'release.published',
  'release.updated',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];
