import { createHash } from 'node:crypto';
import type { TransactionEntities } from '../../platform/data/index.js';

/** Expiry items are spread over this many partitions; the sweep queries each. */
export const EXPIRY_SHARD_COUNT = 16;
export const EXPIRY_SHARDS = Array.from({ length: EXPIRY_SHARD_COUNT }, (_, n) => String(n));

/** A reminder item is first looked at this long before the expiry: the most a product's `renewalReminderDays` may say. */
export const FIRST_REMINDER_LEAD_DAYS = 60;
const DAY_MS = 24 * 3600 * 1000;

export function expiryShard(licenseId: string): string {
  return String(createHash('sha256').update(licenseId).digest()[0]! % EXPIRY_SHARD_COUNT);
}

export type ExpiryState = { status: string; expiresAt?: string | null; graceUntil?: string | null } | undefined;
type LicenseIdentity = { licenseId: string; tenantId: string; productId: string };

/** The expiry time the sweep must act on, if any: only active licenses expire, and one in grace at its grace's end. */
export function dueAt(state: ExpiryState): string | undefined {
  if (state?.status !== 'active' || !state.expiresAt) return undefined;
  return state.graceUntil && state.graceUntil > state.expiresAt ? state.graceUntil : state.expiresAt;
}

/** The expiry reminders are for: an active license's `expiresAt`. */
const remindedExpiry = (state: ExpiryState) => (state?.status === 'active' && state.expiresAt ? state.expiresAt : undefined);

/**
 * Transaction items that keep the rule "an expiry item exists exactly while a license is active with an expiry", for
 * a write that takes the license from `before` to `after` (undefined: absent); and that put a reminder item when the
 * license becomes active with a new expiry (an earlier one goes stale and the sweep drops it).
 */
export function expiryItemChanges(
  tx: Pick<TransactionEntities, 'licenseExpiry' | 'licenseReminder'>,
  license: LicenseIdentity,
  before: ExpiryState,
  after: ExpiryState,
) {
  const from = dueAt(before);
  const to = dueAt(after);
  const shard = expiryShard(license.licenseId);
  const identity = { licenseId: license.licenseId, tenantId: license.tenantId, productId: license.productId };
  return [
    ...(from && from !== to ? [tx.licenseExpiry.delete({ shard, expiresAt: from, licenseId: license.licenseId }).commit()] : []),
    ...(to && from !== to ? [tx.licenseExpiry.put({ shard, expiresAt: to, ...identity }).commit()] : []),
    ...(remindedExpiry(after) !== remindedExpiry(before) ? reminderItems(tx, license, after) : []),
  ];
}

/**
 * The item that has the sweep look at a license's renewal reminders from 60 days before its expiry (none unless it is
 * active with one). Also put when a subscription is set to cancel: days skipped while it renewed are looked at again
 * (the sent marks keep a reminder already sent from going twice).
 */
export function reminderItems(tx: Pick<TransactionEntities, 'licenseReminder'>, license: LicenseIdentity, state: ExpiryState) {
  const reminded = remindedExpiry(state);
  if (!reminded) return [];
  const remindAt = new Date(Date.parse(reminded) - FIRST_REMINDER_LEAD_DAYS * DAY_MS).toISOString();
  const { licenseId, tenantId, productId } = license;
  return [tx.licenseReminder.put({ shard: expiryShard(licenseId), remindAt, expiresAt: reminded, licenseId, tenantId, productId }).commit()];
}
