import * as z from 'zod/mini';
import { ACTIVATION_ENVIRONMENTS, ACTIVATION_STATUSES, BILLING_CYCLES, type EntityItem, LICENSE_STATUSES, PRODUCT_STATUSES, PRODUCT_TYPES, RELEASE_STATUSES } from '../platform/data/index.js';
import { CHANNELS, DEFAULT_CHANNEL } from '../catalog/index.js';
import { DEFAULT_LEASE_SECONDS } from '../licensing/index.js';
import { lazily } from '../platform/index.js';

/**
 * The account export's records (DECISIONS §16), which the `jsonl` import reads back: one JSON object per line,
 * each typed by `type`. A record is the resource as the management API shows it (its `id`, camelCase fields,
 * `null` for an unset optional), without the objects a view joins in (`product`, `license`), without counters the
 * service derives (`activatedCount`, `plansCount`, `downloadCount`, `latestVersion`) and without secrets (a webhook's
 * `secret`, a product's signing keys), plus the ids that tie it to its owner (`customerId` on payments).
 *
 * Order: an export writes `export` first, then every record of one type before the next, in `RECORD_TYPES` order,
 * so each record comes after the records it names (a license after its product, plan and customer; an activation
 * after its license). The import reads in one pass and relies on that order.
 *
 * Readers ignore fields they do not know (zod objects strip them), so a newer export with more fields still imports;
 * a field's meaning never changes without a new `formatVersion`.
 */

/** The version of the records' shape; the `export` line carries it. */
export const EXPORT_FORMAT_VERSION = 1;

/** Record types in the order an export writes them (each after those it refers to). */
export const RECORD_TYPES = [
  'export', 'product', 'plan', 'release', 'customer', 'license', 'activation', 'payment', 'subscription', 'webhook',
] as const;
export type RecordType = (typeof RECORD_TYPES)[number];

/**
 * The records' schemas, built by the first call: a CSV export reads their fields (its columns), a `jsonl` import parses
 * with them; the functions that load this module for its `recordOf` alone (a JSON Lines export) build none of them.
 */
export const recordSchemas = lazily(() => {
  const text = z.string();
  /** An optional field: `null` or absent when unset. */
  const maybe = <T extends z.core.$ZodType>(schema: T) => z.optional(z.nullable(schema));
  const timestamp = z.iso.datetime({ offset: true });
  const record = <T extends RecordType, S extends z.core.$ZodShape>(type: T, shape: S) => z.object({ type: z.literal(type), ...shape });

  /** The first line of an export: what wrote it and when. */
  const exportHeaderRecord = record('export', {
    formatVersion: z.number(),
    exportedAt: timestamp,
    /** The exporting account's tenant id, for the reader's information only. */
    tenantId: maybe(text),
  });

  const productRecord = record('product', {
    id: text,
    name: text,
    slug: text,
    productType: z.enum(PRODUCT_TYPES),
    status: z.enum(PRODUCT_STATUSES),
    isPremium: z.optional(z.boolean()),
    requiresLicense: z.optional(z.boolean()),
    managesReleases: z.optional(z.boolean()),
    licensePrefix: z.optional(text),
    description: maybe(text),
    logoUrl: maybe(text),
    bannerUrl: maybe(text),
    readmeUrl: maybe(text),
    homepage: maybe(text),
    icon: maybe(text),
    color: maybe(text),
    tested: maybe(text),
    requires: maybe(text),
    requiresPhp: maybe(text),
    stagingPatterns: maybe(z.array(text)),
    stagingActivationLimit: maybe(z.number()),
    offlineValidityDays: maybe(z.number()),
    /** What its plans may grant (DECISIONS §23); absent (an export made before it was written): none. */
    features: z.optional(z.array(z.object({ key: text, name: text }))),
    /** A bundle's included products, by their ids in this export (DECISIONS §23); empty for any other product. */
    includes: z.optional(z.array(text)),
    /** The product's `pk_` key, embedded in shipped code: an import keeps it when it is free. Not a secret. */
    public_key: maybe(text),
    createdAt: timestamp,
    deletedAt: maybe(timestamp),
  });

  const planRecord = record('plan', {
    id: text,
    productId: text,
    name: text,
    slug: text,
    billingCycle: z.enum(BILLING_CYCLES),
    price: z.number(),
    currency: text,
    siteLimit: z.number(),
    shortDescription: maybe(text),
    isActive: z.optional(z.boolean()),
    isPublic: z.optional(z.boolean()),
    /** The feature keys it grants (DECISIONS §23). */
    features: z.optional(z.array(text)),
    createdAt: timestamp,
  });

  /** A release's metadata; the ZIP file itself is not part of an export. */
  const releaseRecord = record('release', {
    id: text,
    productId: text,
    version: text,
    status: z.enum(RELEASE_STATUSES),
    releaseNotes: maybe(text),
    filePath: maybe(text),
    fileName: maybe(text),
    fileSize: maybe(z.number()),
    tested: maybe(text),
    requires: maybe(text),
    requiresPhp: maybe(text),
    releasedAt: maybe(timestamp),
    createdAt: timestamp,
  });

  const customerRecord = record('customer', {
    id: text,
    email: text,
    firstName: maybe(text),
    lastName: maybe(text),
    company: maybe(text),
    phone: maybe(text),
    street: maybe(text),
    city: maybe(text),
    state: maybe(text),
    postalCode: maybe(text),
    country: maybe(text),
    timezone: maybe(text),
    metadata: maybe(z.record(z.string(), z.unknown())),
    createdAt: timestamp,
  });

  const licenseRecord = record('license', {
    id: text,
    /** Exactly as issued: the import keeps it. */
    licenseKey: text,
    productId: text,
    planId: maybe(text),
    customerId: maybe(text),
    customerEmail: text,
    customerName: maybe(text),
    status: z.enum(LICENSE_STATUSES),
    seats: z.number(),
    /** `null`: lifetime. */
    expiresAt: maybe(timestamp),
    /** The release channel it receives; absent (an export made before it was written): `stable`. */
    channel: z.optional(z.enum(CHANNELS)),
    /** Seats lent to machines by leases (DECISIONS §18); absent (an export made before it was written): false. */
    floating: z.optional(z.boolean()),
    /** How long a lease lives without a heartbeat; absent: 900. */
    leaseSeconds: z.optional(z.number()),
    /** The feature keys it carries (DECISIONS §23). */
    features: z.optional(z.array(text)),
    createdAt: timestamp,
  });

  const activationRecord = record('activation', {
    id: text,
    licenseId: text,
    /** What holds the seat: the site's domain, or for a device `machine:<fingerprint>` (with `machine` set). */
    domain: text,
    /** A device's fingerprint (DECISIONS §18), its name and platform; `null` for a site. */
    machine: maybe(text),
    name: maybe(text),
    platform: maybe(text),
    ipAddress: maybe(text),
    status: z.enum(ACTIVATION_STATUSES),
    /** Absent: production (a seat). */
    environment: z.optional(z.enum(ACTIVATION_ENVIRONMENTS)),
    activatedAt: timestamp,
    deactivatedAt: maybe(timestamp),
    lastCheckedAt: maybe(timestamp),
  });

  const paymentRecord = record('payment', {
    id: text,
    customerId: text,
    productId: maybe(text),
    licenseId: maybe(text),
    amount: z.number(),
    currency: text,
    status: z.enum(['completed', 'refunded']),
    paymentMethod: text,
    invoicePdfUrl: maybe(text),
    productName: maybe(text),
    /** The payment provider's own id (Stripe's `pi_…` or `in_…`). */
    providerPaymentId: maybe(text),
    createdAt: timestamp,
  });

  const subscriptionRecord = record('subscription', {
    id: text,
    customerId: text,
    licenseId: maybe(text),
    productId: maybe(text),
    planId: maybe(text),
    status: text,
    currentPeriodStart: maybe(timestamp),
    currentPeriodEnd: maybe(timestamp),
    cancelAtPeriodEnd: z.boolean(),
    canceledAt: maybe(timestamp),
    planName: maybe(text),
    billingCycle: maybe(text),
    price: maybe(z.number()),
    currency: maybe(text),
    productName: maybe(text),
    /** The payment provider's own id (Stripe's `sub_…`). */
    providerSubscriptionId: maybe(text),
    createdAt: timestamp,
  });

  /** A webhook without its signing secret: an import gives it a new one. */
  const webhookRecord = record('webhook', {
    id: text,
    name: text,
    url: text,
    events: z.array(text),
    enabled: z.boolean(),
    createdAt: timestamp,
  });

  /** Any line of an export. */
  const portableRecord = z.discriminatedUnion('type', [
    exportHeaderRecord, productRecord, planRecord, releaseRecord, customerRecord, licenseRecord, activationRecord,
    paymentRecord, subscriptionRecord, webhookRecord,
  ]);
  return {
    export: exportHeaderRecord,
    product: productRecord,
    plan: planRecord,
    release: releaseRecord,
    customer: customerRecord,
    license: licenseRecord,
    activation: activationRecord,
    payment: paymentRecord,
    subscription: subscriptionRecord,
    webhook: webhookRecord,
    /** Any line of an export. */
    portable: portableRecord,
  };
});
type RecordSchemas = ReturnType<typeof recordSchemas>;

export type ExportHeaderRecord = z.infer<RecordSchemas['export']>;
export type ProductRecord = z.infer<RecordSchemas['product']>;
export type PlanRecord = z.infer<RecordSchemas['plan']>;
export type ReleaseRecord = z.infer<RecordSchemas['release']>;
export type CustomerRecord = z.infer<RecordSchemas['customer']>;
export type LicenseRecord = z.infer<RecordSchemas['license']>;
export type ActivationRecord = z.infer<RecordSchemas['activation']>;
export type PaymentRecord = z.infer<RecordSchemas['payment']>;
export type SubscriptionRecord = z.infer<RecordSchemas['subscription']>;
export type WebhookRecord = z.infer<RecordSchemas['webhook']>;
export type PortableRecord = z.infer<RecordSchemas['portable']>;

/** One line of a `jsonl` export. */
export const recordLine = (value: PortableRecord): string => `${JSON.stringify(value)}\n`;

/**
 * Columns of our `csv` import format (DECISIONS §16), read by header name. An export's `licenses.csv` uses
 * exactly these, so that file alone imports as `csv` too. `domains`: the active activations' domains joined by `;`.
 */
export const LICENSE_CSV_COLUMNS = [
  'license_key', 'customer_email', 'customer_name', 'status', 'seats', 'expires_at', 'domains', 'plan_slug', 'created_at',
] as const;
export const DOMAIN_SEPARATOR = ';';

const orNull = <T>(value: T | undefined) => value ?? null;

/** Records of stored items, as an export writes them. */
export const recordOf = {
  product: (item: EntityItem<'product'>): ProductRecord => ({
    type: 'product',
    id: item.productId,
    name: item.name,
    slug: item.slug,
    productType: item.productType,
    status: item.status,
    isPremium: item.isPremium,
    requiresLicense: item.requiresLicense,
    managesReleases: item.managesReleases,
    licensePrefix: item.licensePrefix,
    description: orNull(item.description),
    logoUrl: orNull(item.logoUrl),
    bannerUrl: orNull(item.bannerUrl),
    readmeUrl: orNull(item.readmeUrl),
    homepage: orNull(item.homepage),
    icon: orNull(item.icon),
    color: orNull(item.color),
    tested: orNull(item.tested),
    requires: orNull(item.requires),
    requiresPhp: orNull(item.requiresPhp),
    stagingPatterns: orNull(item.stagingPatterns),
    stagingActivationLimit: orNull(item.stagingActivationLimit),
    offlineValidityDays: orNull(item.offlineValidityDays),
    features: item.features ?? [],
    includes: item.includes ?? [],
    public_key: item.publicKey,
    createdAt: item.createdAt,
    deletedAt: orNull(item.deletedAt),
  }),
  plan: (item: EntityItem<'plan'>): PlanRecord => ({
    type: 'plan',
    id: item.planId,
    productId: item.productId,
    name: item.name,
    slug: item.slug,
    billingCycle: item.billingCycle,
    price: item.price,
    currency: item.currency,
    siteLimit: item.siteLimit,
    shortDescription: orNull(item.shortDescription),
    isActive: item.isActive,
    isPublic: item.isPublic,
    features: item.features ?? [],
    createdAt: item.createdAt,
  }),
  release: (item: EntityItem<'release'>): ReleaseRecord => ({
    type: 'release',
    id: item.releaseId,
    productId: item.productId,
    version: item.version,
    status: item.status,
    releaseNotes: orNull(item.releaseNotes),
    filePath: item.filePath,
    fileName: item.fileName,
    fileSize: item.fileSize,
    tested: orNull(item.tested),
    requires: orNull(item.requires),
    requiresPhp: orNull(item.requiresPhp),
    releasedAt: orNull(item.releasedAt),
    createdAt: item.createdAt,
  }),
  customer: (item: EntityItem<'customer'>): CustomerRecord => ({
    type: 'customer',
    id: item.customerId,
    email: item.email,
    firstName: orNull(item.firstName),
    lastName: orNull(item.lastName),
    company: orNull(item.company),
    phone: orNull(item.phone),
    street: orNull(item.street),
    city: orNull(item.city),
    state: orNull(item.state),
    postalCode: orNull(item.postalCode),
    country: orNull(item.country),
    timezone: orNull(item.timezone),
    metadata: orNull(item.metadata as Record<string, unknown> | undefined),
    createdAt: item.createdAt,
  }),
  license: (item: EntityItem<'license'>): LicenseRecord => ({
    type: 'license',
    id: item.licenseId,
    licenseKey: item.licenseKey,
    productId: item.productId,
    planId: orNull(item.planId),
    customerId: orNull(item.customerId),
    customerEmail: item.customerEmail,
    customerName: orNull(item.customerName),
    status: item.status,
    seats: item.seats,
    expiresAt: orNull(item.expiresAt),
    channel: item.channel ?? DEFAULT_CHANNEL,
    floating: item.floating ?? false,
    leaseSeconds: item.leaseSeconds ?? DEFAULT_LEASE_SECONDS,
    features: item.features ?? [],
    createdAt: item.createdAt,
  }),
  /** `lastChecked`: the active activation's last check, which its `activeDomain` item holds. */
  activation: (item: EntityItem<'activation'>, lastChecked?: { lastCheckedAt?: string }): ActivationRecord => ({
    type: 'activation',
    id: item.activationId,
    licenseId: item.licenseId,
    domain: item.domain,
    machine: orNull(item.machine),
    name: orNull(item.name),
    platform: orNull(item.platform),
    ipAddress: item.ipAddress,
    status: item.status,
    environment: item.environment ?? 'production',
    activatedAt: item.activatedAt,
    deactivatedAt: orNull(item.deactivatedAt),
    lastCheckedAt: orNull(lastChecked?.lastCheckedAt ?? item.lastCheckedAt),
  }),
  payment: (item: EntityItem<'payment'>): PaymentRecord => ({
    type: 'payment',
    id: item.paymentId,
    customerId: item.customerId,
    productId: orNull(item.productId),
    licenseId: orNull(item.licenseId),
    amount: item.amount,
    currency: item.currency,
    status: item.status,
    paymentMethod: item.paymentMethod,
    invoicePdfUrl: orNull(item.invoicePdfUrl),
    productName: orNull(item.productName),
    providerPaymentId: orNull(item.providerPaymentId),
    createdAt: item.createdAt,
  }),
  subscription: (item: EntityItem<'subscription'>): SubscriptionRecord => ({
    type: 'subscription',
    id: item.subscriptionId,
    customerId: item.customerId,
    licenseId: orNull(item.licenseId),
    productId: orNull(item.productId),
    planId: orNull(item.planId),
    status: item.status,
    currentPeriodStart: orNull(item.currentPeriodStart),
    currentPeriodEnd: orNull(item.currentPeriodEnd),
    cancelAtPeriodEnd: item.cancelAtPeriodEnd,
    canceledAt: orNull(item.canceledAt),
    planName: orNull(item.planName),
    billingCycle: orNull(item.billingCycle),
    price: orNull(item.price),
    currency: orNull(item.currency),
    productName: orNull(item.productName),
    providerSubscriptionId: orNull(item.providerSubscriptionId),
    createdAt: item.createdAt,
  }),
  webhook: (item: EntityItem<'webhook'>): WebhookRecord => ({
    type: 'webhook',
    id: item.webhookId,
    name: item.name,
    url: item.url,
    events: item.events,
    enabled: item.enabled,
    createdAt: item.createdAt,
  }),
};
