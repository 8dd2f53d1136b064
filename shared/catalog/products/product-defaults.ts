import type { PLAN_CHANGE_PRORATIONS } from '../../platform/data/index.js';

/**
 * What a product's settings are when it sets none. The product owns them; licensing and billing read them from here.
 */

/** How a product's plan changes are charged (DECISIONS §15). */
export type PlanChangeProration = (typeof PLAN_CHANGE_PRORATIONS)[number];
export const DEFAULT_PLAN_CHANGE_PRORATION: PlanChangeProration = 'upgradeNowDowngradeAtRenewal';

/** Staging activations a license may hold at once (docs/api.md, Staging sites). */
export const DEFAULT_STAGING_ACTIVATION_LIMIT = 3;

/** Days an offline license file stays valid (docs/api.md, Offline license files). */
export const OFFLINE_VALIDITY_DAYS = 30;

/** Renewal reminders: a week before expiry (DECISIONS §15). */
export const DEFAULT_RENEWAL_REMINDER_DAYS = [7];

/** Days a license stays valid past a failed renewal payment's period (DECISIONS §15). */
export const DEFAULT_GRACE_DAYS = 7;
