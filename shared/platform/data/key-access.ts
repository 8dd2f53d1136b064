import { SERVICE_NAME } from './table-schema.js';

/**
 * Which items each kind of function may read, and which of those it may change, by their partition keys (ElectroDB
 * writes partition keys as `$licensing#<attribute>_<value>…`, on the table and on every index).
 * - `read`: the attributes that lead the keys it may read (gets, queries, transaction condition checks).
 * - `write`: the keys it may put, update or delete, as templates of their attributes: `licenseKey` is
 *   `$licensing#licenseKey_…` (and any key it leads), `tenantId#shard` only `$licensing#tenantId_…#shard_…` (a
 *   tenant's counter shards, not the tenant's payment provider or seen Stripe events, which `tenantId` alone leads).
 * The stack turns these into `dynamodb:LeadingKeys` conditions, reads and writes apart, and the local runtime enforces
 * the same lists, so a function that reaches for an item outside its role, or changes one it may only read, fails in
 * the tests as it would in AWS.
 * Users (`userId`), their e-mails (`email`), sessions (`tokenHash`), OAuth states (`stateHash`) and linked provider
 * accounts (`provider`) are in no list but the management function's, which is not restricted; API keys (`keyHash`)
 * are the management's and the portal's, which checks them and keeps their `lastUsedAt`.
 */

/**
 * What the edge and public functions read: licenses, their activations and domain holds, products (by id, slug and
 * public key), releases, rate limits, idempotency records, the tenant's payment provider (checkout), checkout sessions.
 */
const LICENSING_READS = [
  'licenseKey', 'licenseId', 'activationId', 'productId', 'slug', 'publicKey', 'releaseId', 'eventId', 'outboxShard', 'tenantId', 'bucket',
  'checkoutSessionId', 'idempotencyKeyHash', 'leasePool', 'leaseId', 'planId', 'couponId',
] as const;

/**
 * What a license operation changes: the license, its activations and domain and machine holds (`licenseId#domain`),
 * a floating license's pool (`leasePool`: seat slots, machine holds, fill marker) and leases (`leaseId`), the tenant's
 * counters, its outbox events (with their pending markers, `outboxShard`), rate limits and the idempotency records of
 * activate and deactivate. Never a product, a payment provider or a seen Stripe event.
 */
const LICENSE_OPERATION_WRITES = [
  'licenseKey', 'licenseId#domain', 'activationId', 'eventId', 'outboxShard', 'tenantId#shard', 'bucket', 'idempotencyKeyHash', 'leasePool',
  'leaseId',
] as const;

export const KEY_ACCESS = {
  /**
   * Edge: license operations, update checks and downloads (a release's download count), and a product's first
   * activation, in its records partition (`productRecords`), never the product item itself.
   */
  edge: { read: LICENSING_READS, write: [...LICENSE_OPERATION_WRITES, 'releaseId', 'productRecords'] },
  /**
   * Public API: license operations, checkout (it reads the payment provider, writes only the sessions it opens), and
   * feedback and deactivation reasons with their daily counts, in their product's records partition (`productRecords`),
   * never the product item itself. Checkout reads the plan and a `promo` code's coupon (`planId`, `couponId`; the code's
   * holder by `tenantId`). A no-card trial (DECISIONS §15) writes its claim (`productId#email`) and what issuing its
   * license writes: the license, its ref and license e-mail (`licenseId`), expiry item (`shard`), customer and e-mail holder.
   */
  public: {
    read: [...LICENSING_READS, 'customerId'],
    write: [...LICENSE_OPERATION_WRITES, 'checkoutSessionId', 'productRecords', 'productId#email', 'licenseId', 'shard', 'customerId', 'tenantId#email'],
  },
  /**
   * Customer portal: its API keys (`keyHash`, for `lastUsedAt`), the tenant's customer e-mails, licenses by e-mail
   * and payment provider (`tenantId`), payments and subscriptions (`customerId`, `subscriptionId`), products and
   * their releases (`productId`, `releaseId`: `/dl` counts downloads), and its rate limits (`bucket`). It changes its
   * keys' `lastUsedAt`, download counts, a subscription's cancellation and its rate limits; and what a transfer writes:
   * the license (by key and id, with its activations and domain holds), the new owner's customer and e-mail lookup,
   * counters, the event and the new owner's e-mail (with their markers), and the end of a floating license's leases.
   * The hosted portal (DECISIONS §25) reads products by public key and the vendor's portal settings (`tenantId`), and
   * writes its sign-in links (`signInHash`, with their e-mail) and sessions (`portalSessionHash`).
   */
  portal: {
    // `teamId`: the membership of a key's maker (a member's key lasts as long as they are a member).
    read: [
      'keyHash', 'tenantId', 'customerId', 'subscriptionId', 'productId', 'releaseId', 'bucket', 'planId', 'licenseId', 'licenseKey', 'activationId',
      'eventId', 'outboxShard', 'teamId', 'leasePool', 'leaseId',
      // The hosted portal (DECISIONS §25): the product a page's public key names, sign-in links and sessions.
      'publicKey', 'signInHash', 'portalSessionHash',
    ],
    // A transfer writes the license, its activations, the customer and their counters, events and the new owner's
    // e-mail, and ends the leases of a floating license (its pool and leases); a plan change (DECISIONS §15) the
    // license's seats and plan, the subscription and their events.
    write: [
      'keyHash', 'subscriptionId', 'releaseId', 'bucket',
      'licenseKey', 'licenseId#domain', 'activationId', 'customerId', 'tenantId#email', 'tenantId#shard', 'eventId', 'outboxShard', 'mailId',
      'leasePool', 'leaseId', 'signInHash', 'portalSessionHash',
    ],
  },
  /**
   * Stripe webhook: the vendor's provider, seen event ids and Stripe-id lookups (by `tenantId`), the checkout
   * session, product and plan named by an event (the plan as sold travels in the event; the plan itself is read only
   * for a session opened without that snapshot), and what a purchase, renewal or refund writes: customer (and its
   * e-mail lookup), license (with its ref, expiry item, e-mail and activations), payment, subscription, counters and
   * outbound events, the counts of the tenant's overview (`overview`), and the audit entry of what the event changed
   * (`auditLog`). It changes no payment provider, product or plan.
   */
  stripeWebhook: {
    read: [
      'tenantId', 'checkoutSessionId', 'productId', 'planId', 'customerId', 'licenseKey', 'licenseId', 'shard', 'activationId',
      'paymentId', 'subscriptionId', 'eventId', 'outboxShard',
    ],
    write: [
      'tenantId#stripeEventId', 'tenantId#stripeId', 'tenantId#email', 'tenantId#shard', 'checkoutSessionId', 'customerId', 'licenseKey',
      'licenseId', 'shard', 'activationId', 'paymentId', 'subscriptionId', 'eventId', 'outboxShard', 'overview', 'auditLog',
      // A purchase that continues a no-card trial marks its claim converted (DECISIONS §15).
      'productId#email',
    ],
  },
  /**
   * Outbox fan-out and webhook dispatcher: webhooks (by id and by tenant), deliveries and their counters, the pending
   * markers of the outbox items the fan-out forwards (`outboxShard`), which it removes, and the audit log's entries and
   * chain head (`auditLog`), which the fan-out links.
   */
  webhookWorker: {
    read: ['webhookId', 'deliveryId', 'tenantId', 'outboxShard', 'auditLog'],
    write: ['webhookId', 'deliveryId', 'tenantId#shard', 'outboxShard', 'auditLog'],
  },
  /**
   * Outbox sweep: the pending markers it queries by shard, the outbox events it reads to forward them again (`eventId`),
   * and what forwarding an event writes (as the fan-out's). License e-mails need no read: the mail message names them.
   */
  outboxSweep: {
    read: ['outboxShard', 'eventId', 'webhookId', 'deliveryId', 'tenantId'],
    write: ['outboxShard', 'webhookId', 'deliveryId', 'tenantId#shard'],
  },
  /**
   * Usage event writer: the events it writes (by `productId#day`) and their daily counts (`productRecords`), the
   * licenses events name, which it reads, and the install sightings and sketches of the tenants' overviews (`overview`).
   */
  usageWriter: { read: ['productId', 'licenseKey', 'overview'], write: ['productId#day', 'productRecords', 'overview'] },
  /** Mail sender: the e-mails it claims and marks sent (license e-mails by license id, the others by mail id), nothing else. */
  mailSender: { read: ['licenseId', 'mailId'], write: ['licenseId', 'mailId'] },
  /**
   * Expiry sweep: due expiry and reminder items and reminders' sent marks (`shard`), the licenses they name, their
   * products, the licenses' subscriptions (by `customerId`), counters, events and reminder e-mails (`mailId`, with
   * their markers).
   */
  expirySweep: {
    read: ['shard', 'licenseId', 'licenseKey', 'productId', 'tenantId', 'customerId', 'eventId', 'outboxShard', 'mailId'],
    write: ['shard', 'licenseKey', 'tenantId#shard', 'eventId', 'outboxShard', 'mailId'],
  },
  /** Lease expiry: due leases by shard (the lease index, `leaseShard`), which it deletes, and their `lease.expired` events. */
  leaseExpiry: { read: ['leaseShard', 'leaseId', 'eventId', 'outboxShard'], write: ['leaseId', 'eventId', 'outboxShard'] },
  /**
   * Export worker: its export jobs (`exportId`), and reads of everything a tenant holds by the indexes keyed by the
   * tenant (products, customers, licenses, activations, webhooks), its products (plans, releases) and customers
   * (payments, subscriptions), and active sites' last checks (`licenseId`). It writes its job only.
   */
  exportWorker: { read: ['exportId', 'tenantId', 'productId', 'customerId', 'licenseId', 'planId'], write: ['exportId'] },
  /**
   * Import worker: its import and bad rows (`importId`); the target product and its plans (`productId`); the keys and
   * e-mails a batch finds taken (`licenseKey`, `tenantId`); what an imported license writes: the license, its ref,
   * expiry item, activations and domain holds (`licenseKey`, `licenseId`, `shard`, `activationId`), its customer and
   * the e-mail's holder (`customerId`, `tenantId#email`), the counters (`tenantId#shard`), and the `import.completed`
   * event (`eventId`, `outboxShard`) with the import's audit entry (`auditLog`), and the tenant's import slot it frees
   * at the end (`importSlot`). It changes no product or plan.
   */
  importWorker: {
    read: ['importId', 'productId', 'licenseKey', 'tenantId', 'importSlot'],
    write: [
      'importId', 'licenseKey', 'licenseId', 'shard', 'activationId', 'customerId', 'tenantId#email', 'tenantId#shard', 'eventId', 'outboxShard',
      'auditLog', 'importSlot',
    ],
  },
} as const satisfies Record<string, { read: readonly string[]; write: readonly string[] }>;

export type KeyAccessRole = keyof typeof KEY_ACCESS;

/** What a function is given: one of the restricted roles, or the whole table (management). */
export type TableKeyAccess = KeyAccessRole | 'all';

/** Reading an item, or changing it. */
export type KeyUse = 'read' | 'write';

/** `StringLike` patterns of the partition keys a role may read, or write. */
export function leadingKeyPatterns(role: KeyAccessRole, use: KeyUse): string[] {
  return KEY_ACCESS[role][use].map((template) => `$${SERVICE_NAME}${template.split('#').map((attribute) => `#${attribute}_*`).join('')}`);
}
