import { createHash } from 'node:crypto';
import type { TransactionEntities } from '../data/service.js';

/** Expiry items are spread over this many partitions; the sweep queries each. */
export const EXPIRY_SHARD_COUNT = 16;
export const EXPIRY_SHARDS = Array.from({ length: EXPIRY_SHARD_COUNT }, (_, n) => String(n));

export function expiryShard(licenseId: string): string {
  return String(createHash('sha256').update(licenseId).digest()[0]! % EXPIRY_SHARD_COUNT);
}

type ExpiryState = { status: string; expiresAt?: string | null } | undefined;
type LicenseIdentity = { licenseId: string; tenantId: string; productId: string };

/** The expiry time the sweep must act on, if any: only active licenses expire. */
function dueAt(state: ExpiryState): string | undefined {
  return state?.status === 'active' && state.expiresAt ? state.expiresAt : undefined;
}

/**
 * Transaction items that keep the rule "an expiry item exists exactly while a license is active
 * with an expiry", for a write that takes the license from `before` to `after` (undefined: absent).
 */
export function expiryItemChanges(tx: Pick<TransactionEntities, 'licenseExpiry'>, license: LicenseIdentity, before: ExpiryState, after: ExpiryState) {
  const from = dueAt(before);
  const to = dueAt(after);
  if (from === to) return [];
  const shard = expiryShard(license.licenseId);
  return [
    ...(from ? [tx.licenseExpiry.delete({ shard, expiresAt: from, licenseId: license.licenseId }).commit()] : []),
    ...(to ? [tx.licenseExpiry.put({ shard, expiresAt: to, ...license }).commit()] : []),
  ];
}
