import { SERVICE_NAME } from './table-schema.js';

/**
 * Which items each kind of function may touch, by the attribute that leads its partition key
 * (ElectroDB writes partition keys as `$licensing#<attribute>_<value>…`, on the table and on every index).
 * The stack turns these into `dynamodb:LeadingKeys` conditions and the local runtime enforces the same
 * list, so a function that reaches for an item outside its role fails in the tests as it would in AWS.
 * Users (`userId`), their e-mails (`email`), sessions (`tokenHash`), OAuth states (`stateHash`) and linked provider
 * accounts (`provider`) are in no list but the management function's, which is not restricted; API keys (`keyHash`) are the management's and the portal's, which
 * checks them and keeps their `lastUsedAt`.
 */
export const KEY_ACCESS = {
  /**
   * Edge and public surfaces: license operations, update checks, downloads, their counters, events (with their pending
   * markers, `outboxShard`) and rate limits;
   * checkout (the tenant's payment provider, by `tenantId`, and the sessions it opens); the idempotency records of
   * activate and deactivate (`idempotencyKeyHash`).
   */
  licensing: [
    'licenseKey', 'licenseId', 'activationId', 'productId', 'slug', 'publicKey', 'releaseId', 'eventId', 'outboxShard', 'tenantId', 'bucket',
    'checkoutSessionId', 'idempotencyKeyHash',
  ],
  /**
   * Customer portal: its API keys (`keyHash`, for `lastUsedAt`), the tenant's customer e-mails, licenses by e-mail
   * and payment provider (`tenantId`), payments and subscriptions (`customerId`, `subscriptionId`), products and
   * their releases (`productId`, `releaseId`: `/dl` counts downloads), and its rate limits (`bucket`).
   */
  portal: ['keyHash', 'tenantId', 'customerId', 'subscriptionId', 'productId', 'releaseId', 'bucket'],
  /**
   * Stripe webhook: the vendor's provider, seen event ids and Stripe-id lookups (by `tenantId`), the checkout
   * session, product and plan named by an event, and what a purchase, renewal or refund writes: customer, license
   * (with its ref, expiry item and activations), payment, subscription, counters, outbound events and the license e-mail
   * (with their pending markers).
   */
  stripeWebhook: [
    'tenantId', 'checkoutSessionId', 'productId', 'planId', 'customerId', 'licenseKey', 'licenseId', 'shard', 'activationId',
    'paymentId', 'subscriptionId', 'eventId', 'outboxShard',
  ],
  /**
   * Outbox fan-out and webhook dispatcher: webhooks (by id and by tenant), deliveries and their counters, and the pending
   * markers of the outbox items the fan-out forwards (`outboxShard`), which it removes.
   */
  webhookWorker: ['webhookId', 'deliveryId', 'tenantId', 'outboxShard'],
  /**
   * Outbox sweep: the pending markers it queries by shard, the outbox events it reads to forward them again (`eventId`),
   * and what forwarding an event writes (as the fan-out's). License e-mails need no read: the mail message names them.
   */
  outboxSweep: ['outboxShard', 'eventId', 'webhookId', 'deliveryId', 'tenantId'],
  /** Usage event writer: the events and daily counts it writes (by `productId`), and the licenses events name, which it reads. */
  usageWriter: ['productId', 'licenseKey'],
  /** Mail sender: the license e-mails it claims and marks sent (keyed by license id), nothing else. */
  mailSender: ['licenseId'],
  /** Expiry sweep: due expiry items, the licenses they name, their products, counters and events (with their markers). */
  expirySweep: ['shard', 'licenseId', 'licenseKey', 'productId', 'tenantId', 'eventId', 'outboxShard'],
  /**
   * Import worker: its import and bad rows (`importId`); the target product and its plans (`productId`); what an
   * imported license writes: the license, its ref, expiry item and activations (`licenseKey`, `licenseId`, `shard`,
   * `activationId`), its customer and the e-mail's holder (`customerId`, `tenantId`), the counters (`tenantId`), and the
   * `import.completed` event (`eventId`, `outboxShard`).
   */
  importWorker: [
    'importId', 'productId', 'licenseKey', 'licenseId', 'shard', 'activationId', 'customerId', 'tenantId', 'eventId', 'outboxShard',
  ],
} as const satisfies Record<string, readonly string[]>;

export type KeyAccessRole = keyof typeof KEY_ACCESS;

/** What a function is given: one of the restricted roles, or the whole table (management). */
export type TableKeyAccess = KeyAccessRole | 'all';

/** `StringLike` patterns of the partition keys a role may use. */
export function leadingKeyPatterns(role: KeyAccessRole): string[] {
  return KEY_ACCESS[role].map((attribute) => `$${SERVICE_NAME}#${attribute}_*`);
}
