/** A product's renewal reminders when it sets none: a week before expiry (DECISIONS §15). */
export const DEFAULT_RENEWAL_REMINDER_DAYS = [7];
/** Days a license stays valid past a failed renewal payment's period when its product sets none (DECISIONS §15). */
export const DEFAULT_GRACE_DAYS = 7;
