import type { WebhookEvent } from '../../api/types';

export type EventGroup = 'Licenses' | 'Sites and machines' | 'Customers' | 'Payments' | 'Subscriptions' | 'Releases' | 'Imports';

/** The groups in the order the form shows them. */
export const EVENT_GROUPS: readonly EventGroup[] = ['Licenses', 'Sites and machines', 'Customers', 'Payments', 'Subscriptions', 'Releases', 'Imports'];

/**
 * Every kind the service sends (SERVICE-SPEC §6, docs/api.md), its group and when it is sent. Typed by the API's own
 * list, so a kind the service adds does not compile until it is described here.
 */
export const EVENT_KINDS: Record<WebhookEvent, { group: EventGroup; description: string }> = {
  'license.created': { group: 'Licenses', description: 'A license is issued: bought at checkout, made here or through the API, or imported.' },
  'license.updated': { group: 'Licenses', description: 'A license’s seats, expiry, status, plan or customer change.' },
  'license.expiring': { group: 'Licenses', description: 'A license is due for renewal soon (the product’s reminder days), with its renewal link.' },
  'license.expired': { group: 'Licenses', description: 'A license passes its expiry (and any grace period) and stops validating.' },
  'license.revoked': { group: 'Licenses', description: 'A license is revoked: it stops validating for good.' },
  'license.transferred': { group: 'Licenses', description: 'A license moves to another customer.' },
  'license.activated': { group: 'Sites and machines', description: 'A site or machine activates a license and takes a seat.' },
  'license.deactivated': { group: 'Sites and machines', description: 'A site or machine is deactivated and frees its seat.' },
  'license.seats_exhausted': { group: 'Sites and machines', description: 'A floating license’s last seat is taken.' },
  'lease.created': { group: 'Sites and machines', description: 'A machine borrows a floating seat (renewing a lease sends none).' },
  'lease.released': { group: 'Sites and machines', description: 'A machine gives its floating seat back.' },
  'lease.expired': { group: 'Sites and machines', description: 'A lease ends without a heartbeat, and its seat is free again.' },
  'customer.created': { group: 'Customers', description: 'A customer is added: at a first purchase, here or through the API.' },
  'customer.updated': { group: 'Customers', description: 'A customer’s details change.' },
  'customer.erased': { group: 'Customers', description: 'A customer’s personal data is erased on request.' },
  'payment.completed': { group: 'Payments', description: 'A checkout or a renewal is paid.' },
  'payment.refunded': { group: 'Payments', description: 'A payment is refunded in full.' },
  'subscription.created': { group: 'Subscriptions', description: 'A subscription starts at checkout.' },
  'subscription.renewed': { group: 'Subscriptions', description: 'A subscription’s renewal is paid and its license extended.' },
  'subscription.past_due': { group: 'Subscriptions', description: 'A renewal payment fails; the license stays active through its grace period.' },
  'subscription.updated': { group: 'Subscriptions', description: 'A subscription changes plan, or is set to cancel at its period’s end.' },
  'subscription.cancelled': { group: 'Subscriptions', description: 'A subscription ends; its license expires at the end of the paid period.' },
  'release.published': { group: 'Releases', description: 'A release is published and offered as an update.' },
  'release.updated': { group: 'Releases', description: 'A published release is edited, or its channel or rollout changes.' },
  'import.completed': { group: 'Imports', description: 'An import (not a dry run) finishes, with its counts.' },
};

/** The kinds in the order above: within a group, as things happen to a license or a subscription. */
export const EVENT_ORDER = Object.keys(EVENT_KINDS) as WebhookEvent[];
