import * as z from 'zod/mini';
import { EVENT_TYPES, type EventType } from '../../shared/messaging/index.js';
import { EX, exampleActivationListItem, exampleCustomer, exampleLicense, examplePayment, exampleRelease, exampleSubscription, idOf, named, timestamp } from '../../shared/platform/openapi/index.js';
import { exampleLease, exampleLeaseId, Lease } from '../shared/lease-routes.openapi.js';
import { ActivationListItem } from '../management/routes/activations.openapi.js';
import { Customer, ErasedCustomer, exampleErasedCustomer, Payment, Subscription } from '../management/routes/customers.openapi.js';
import { License } from '../management/routes/licenses.openapi.js';
import { LicenseExpiring, LicenseTransferred } from './lifecycle-events.openapi.js';
import { exampleImport, Import } from '../management/routes/imports.openapi.js';
import { Release } from '../management/routes/releases.openapi.js';

const SeatsExhausted = named(
  'SeatsExhausted',
  z.object({ licenseId: idOf('lic'), licenseKey: z.string(), productId: idOf('prd'), seats: z.number(), leaseIds: z.array(idOf('lse')) }),
  'A floating license whose every seat is leased, and the leases that hold them.',
);
const ReleasedLease = named('ReleasedLease', z.object({ ...Lease.shape, releasedAt: timestamp }), 'A lease returned before its end.');

/**
 * The events the dispatcher sends to vendors' webhooks (DECISIONS §7), for the document's `webhooks`: each kind's
 * `data` schema and an example. Keyed by `EventType`, so a new kind does not compile until it is documented here.
 */
const PAYLOADS: Record<EventType, { data: z.core.$ZodType; example: unknown; description: string }> = {
  'license.created': { data: License, example: exampleLicense, description: 'A license was created (by the API or by a purchase).' },
  'license.activated': {
    data: ActivationListItem,
    example: exampleActivationListItem,
    description: 'A domain was activated (edge or public API): a seat, or for a staging or local site (`environment: "staging"`) a place in the license\'s `stagingCount`.',
  },
  'license.deactivated': {
    data: ActivationListItem,
    example: { ...exampleActivationListItem, status: 'deactivated', deactivatedAt: EX.updated },
    description: 'A seat (or a staging site\'s place, `environment: "staging"`) was freed (edge, public or management API, or a revoke).',
  },
  'license.expired': { data: License, example: { ...exampleLicense, status: 'expired' }, description: 'The expiry sweep moved a license past its `expiresAt` to `expired`.' },
  'license.revoked': { data: License, example: { ...exampleLicense, status: 'revoked', activatedCount: 0, stagingCount: 0 }, description: 'A license was revoked (by the API or a refund).' },
  'license.expiring': {
    data: LicenseExpiring,
    example: { ...exampleLicense, reminderDay: 7, renewalUrl: `${EX.baseUrl}/public/v1/checkout/${EX.publicPlanId}?public_key=${EX.publicKey}` },
    description:
      "A renewal reminder: a license that will expire without renewing (no subscription, or one set to cancel) is `reminderDay` days (one of its product's `renewalReminderDays`) from its `expiresAt`; its owner was e-mailed. Once per day listed and expiry.",
  },
  'license.transferred': {
    data: LicenseTransferred,
    example: { ...exampleLicense, customerEmail: 'new.owner@example.com', previousCustomerId: EX.customerId, previousCustomerEmail: EX.email, activationsKept: false, activatedCount: 0, stagingCount: 0 },
    description: 'A license moved to another customer (management or portal), with the same key; its activations were deactivated unless kept. The new owner was e-mailed.',
  },
  'license.seats_exhausted': {
    data: SeatsExhausted,
    example: { licenseId: EX.licenseId, licenseKey: EX.licenseKey, productId: EX.productId, seats: 1, leaseIds: [exampleLeaseId] },
    description: "Every seat of a floating license is leased: sent once per time the pool fills (not per refused lease).",
  },
  'lease.created': { data: Lease, example: exampleLease, description: 'A machine took a floating seat (`POST /v1/licenses/leases`); a renewal sends none.' },
  'lease.released': {
    data: ReleasedLease,
    example: { ...exampleLease, releasedAt: EX.updated },
    description: 'A machine returned its floating seat (`DELETE /v1/licenses/leases/{leaseId}`).',
  },
  'lease.expired': {
    data: Lease,
    example: exampleLease,
    description: 'A lease passed its `expiresAt` without a heartbeat. Its seat was free at that time; the event is sent when the lease expiry job notices it, within about two minutes.',
  },
  'customer.created': { data: Customer, example: exampleCustomer, description: 'A customer was created (by the API, a new license\'s e-mail or a purchase).' },
  'customer.updated': { data: Customer, example: exampleCustomer, description: 'A customer was updated.' },
  'payment.completed': { data: Payment, example: examplePayment, description: 'A purchase or renewal was paid.' },
  'payment.refunded': { data: Payment, example: { ...examplePayment, status: 'refunded' }, description: 'A payment was fully refunded (its license is revoked).' },
  'subscription.created': { data: Subscription, example: exampleSubscription, description: 'A subscription was bought through checkout.' },
  'subscription.cancelled': {
    data: Subscription,
    example: { ...exampleSubscription, status: 'canceled', canceledAt: EX.updated },
    description: 'Stripe ended a subscription; its license expires at the period end.',
  },
  'subscription.updated': {
    data: Subscription,
    example: { ...exampleSubscription, planName: 'Agency', price: 99 },
    description: "A subscription moved to another plan (the management or portal API's plan change, or a price changed in Stripe); a downgrade when it takes effect at the period end.",
  },
  'license.updated': {
    data: License,
    example: { ...exampleLicense, seats: 10 },
    description: "A license's plan changed with its subscription: `planId` and `seats` are the new plan's; its key, activations and expiry stay.",
  },
  'subscription.renewed': { data: Subscription, example: exampleSubscription, description: "A subscription's renewal was paid; its license's `expiresAt` moved to the new period end." },
  'subscription.past_due': {
    data: Subscription,
    example: { ...exampleSubscription, status: 'past_due' },
    description: "A subscription's renewal payment failed: its license stays valid until its `graceUntil` (the failed period's end + the product's `graceDays`), then expires unless a payment succeeds.",
  },
  'customer.erased': {
    data: ErasedCustomer,
    example: exampleErasedCustomer,
    description: "A customer's personal data was erased (`POST /api/customers/{id}/erase`): the customer as it is now, with `erasedAt`.",
  },
  'import.completed': {
    data: Import,
    example: exampleImport,
    description: 'An import ended (`POST /api/imports`, not a dry run): its counts and first bad rows. The only event an import sends: its licenses, customers and activations fire none.',
  },
  'release.published': {
    data: Release,
    example: exampleRelease,
    description: 'A release was published (created as `published`, or first moved there); `channel` says which licenses receive it.',
  },
  'release.updated': {
    data: Release,
    example: { ...exampleRelease, channel: 'beta', rolloutPercent: 50 },
    description: "A published release's `channel` or `rolloutPercent` changed: who is offered it changed.",
  },
};

const TEST_EVENT = {
  data: z.object({ webhookId: idOf('whk'), name: z.string() }),
  example: { webhookId: EX.webhookId, name: 'CRM sync' },
  description: 'Sent by `POST /api/webhooks/{id}/test` only: nothing is recorded or retried.',
};

export type WebhookEventDoc = { type: string; description: string; envelope: z.core.$ZodType; example: unknown };

const envelopeOf = (type: string, data: z.core.$ZodType) =>
  named(
    `${type.split('.').map((part) => part[0]!.toUpperCase() + part.slice(1)).join('')}Event`,
    z.object({ id: idOf('evt'), type: z.literal(type), createdAt: timestamp, data }),
  );

/** Every event kind, in `EVENT_TYPES` order, then `webhook.test`. */
export const WEBHOOK_EVENTS: WebhookEventDoc[] = [
  ...EVENT_TYPES.map((type) => ({ type, ...PAYLOADS[type] })),
  { type: 'webhook.test', ...TEST_EVENT },
].map(({ type, data, example, description }) => ({
  type,
  description,
  envelope: envelopeOf(type, data),
  example: { id: EX.eventId, type, createdAt: EX.created, data: example },
}));

export const WEBHOOK_DELIVERY_RULES =
  'Each event is POSTed as JSON `{id, type, createdAt, data}` to every enabled webhook subscribed to its kind, signed with the Standard ' +
  'Webhooks scheme: `webhook-signature` is `v1,` and base64 of HMAC-SHA256 over `{webhook-id}.{webhook-timestamp}.{body}`, keyed with the ' +
  'base64-decoded part of the secret after `whsec_`. A 2xx within 10 s is success; a redirect is a failure; `410 Gone` ends the delivery ' +
  'and disables the webhook. Anything else is retried after about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (±20%), then the delivery is ' +
  '`failed`. At least once: de-duplicate on `webhook-id`, which every attempt and redelivery of an event shares.';
