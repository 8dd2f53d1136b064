/**
 * The values that attributes of the model take, which the API's schemas and documents read too. Apart from the
 * entities (shared/platform/data/entities/), so that reading them does not load ElectroDB (shared/platform/data/model.ts).
 */

/** Release channels (DECISIONS §14), from the most to the least stable (shared/catalog/releases/channels.ts). */
export const CHANNELS = ['stable', 'beta', 'alpha'] as const;

/** The platforms a release's desktop files are built for (DECISIONS §26), each `<os>-<architecture>`. */
export const PLATFORMS = ['windows-x64', 'windows-arm64', 'macos-x64', 'macos-arm64', 'linux-x64', 'linux-arm64'] as const;

/** The formats `POST /api/imports` reads (DECISIONS §16), by their `format` parameter. */
export const IMPORT_FORMATS = ['jsonl', 'csv', 'edd', 'woocommerce', 'freemius', 'lemonsqueezy', 'gumroad'] as const;

/** The kinds of outbox item (shared/messaging/outbox/kinds.ts). */
export const OUTBOX_ITEM_KINDS = ['outboxEvent', 'licenseMail', 'mail'] as const;

/** The readme.txt sections the update check shows (DECISIONS §14), by their key in `sections`. */
export const README_SECTIONS = ['description', 'installation', 'faq', 'changelog', 'screenshots'] as const;

export const ACTIVATION_STATUSES = ['active', 'deactivated'] as const;
/** Production sites take a seat; staging and local sites do not (shared/licensing/operations/staging.ts). */
export const ACTIVATION_ENVIRONMENTS = ['production', 'staging'] as const;

export const COUPON_DURATIONS = ['once', 'repeating', 'forever'] as const;

export const EXPORT_FORMATS = ['jsonl', 'csv'] as const;
export const EXPORT_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const FEEDBACK_TYPES = ['bug', 'feature', 'general'] as const;

export const IMPORT_STATUSES = ['queued', 'running', 'done', 'failed'] as const;

export const LICENSE_STATUSES = ['active', 'expired', 'revoked', 'suspended'] as const;

/**
 * What the overview adds up (DECISIONS §19), each a number named by `name`:
 * - by day: `revenue` and `refunds` (minor units, by currency), `refundCount` (by currency), `newLicenses`,
 *   `churned` (subscriptions ended) and install sightings: `sightings`, `version`, `php`, `wp` (by version, `all` for
 *   `sightings`), each site counted once a day;
 * - under the day `current` (a gauge, not a day): `arr` (active subscriptions' yearly price in minor units, by
 *   currency: mrr is a twelfth of it), `activeSubscriptions` (`all`) and `lifetimeRevenue` (by currency: names the
 *   account's main currency).
 */
export const OVERVIEW_METRICS = ['revenue', 'refunds', 'refundCount', 'newLicenses', 'churned', 'sightings', 'version', 'php', 'wp', 'arr', 'activeSubscriptions', 'lifetimeRevenue'] as const;
export type OverviewMetric = (typeof OVERVIEW_METRICS)[number];
/** The day under which the gauges are kept: sorts after every `YYYY-MM-DD`, so a range of days never reads it. */
export const GAUGE_DAY = 'current';
/** The rollup of every product of a tenant. */
export const ALL_PRODUCTS = 'all';

export const PAYMENT_PROVIDERS = ['stripe'] as const;

export const BILLING_CYCLES = ['monthly', 'yearly', 'lifetime'] as const;

export const PRODUCT_TYPES = ['plugin', 'theme', 'app', 'library', 'saas', 'other', 'bundle'] as const;
export const PRODUCT_STATUSES = ['active', 'draft', 'archived'] as const;
/** What an expired license may still update to (DECISIONS §14). */
export const UPDATES_AFTER_EXPIRY = ['none', 'releasedBeforeExpiry'] as const;
/** How a subscription's plan change is timed and prorated (DECISIONS §15); the first is the default. */
export const PLAN_CHANGE_PRORATIONS = ['upgradeNowDowngradeAtRenewal', 'prorateAll', 'none'] as const;

export const RELEASE_STATUSES = ['draft', 'published', 'archived'] as const;

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
