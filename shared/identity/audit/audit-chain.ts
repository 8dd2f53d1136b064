import canonicalize from 'canonicalize';
import type { TransactionEntities } from '../../platform/data/index.js';
import { newId, sha256Hex } from '../../platform/index.js';
import type { AuditActor, AuditScope } from './audit-scope.js';
import type { Changes } from './item-changes.js';

/** DECISIONS §17: entries are kept 400 days (DynamoDB's TTL removes them). */
export const RETENTION_SECONDS = 400 * 24 * 3600;
/** The `prevHash` of a tenant's first entry. */
export const GENESIS_HASH = '0'.repeat(64);

/** An entry as the API shows it, and as its hash covers it. */
export type AuditEntry = {
  id: string;
  at: string;
  actor: AuditActor;
  action: string;
  target: { type: string; id: string };
  changes: Changes;
  ip: string | null;
  userAgent: string | null;
};

/** `hash = SHA-256(previous hash + canonical JSON of the entry)`; canonical JSON is RFC 8785's. */
export const entryHash = (prevHash: string, entry: AuditEntry) => sha256Hex(prevHash + canonicalize(entry)!);

export type StoredAuditEntry = {
  entryId: string;
  at: string;
  actor: unknown;
  action: string;
  targetType: string;
  targetId: string;
  changes: unknown;
  ip?: string;
  userAgent?: string;
  position?: number;
  prevHash?: string;
  hash?: string;
  prevAt?: string;
};

export const toAuditEntry = (item: StoredAuditEntry): AuditEntry => ({
  id: item.entryId,
  at: item.at,
  actor: item.actor as AuditActor,
  action: item.action,
  target: { type: item.targetType, id: item.targetId },
  changes: item.changes as Changes,
  ip: item.ip ?? null,
  userAgent: item.userAgent ?? null,
});

/**
 * The entry item a change's transaction carries. It is not linked into the chain yet: that needs the chain's end, and
 * reading and moving one end in every change would make it the tenant's hot item. The linker links it after the commit
 * (shared/identity/audit/audit-linker.ts).
 */
export function entryItem(
  tx: Pick<TransactionEntities, 'auditEntry'>,
  scope: AuditScope,
  target: { type: string; id: string },
  changes: Changes,
  now: Date,
) {
  return tx.auditEntry
    .create({
      tenantId: scope.tenantId,
      entryId: newId('aud'),
      at: now.toISOString(),
      actor: scope.actor,
      action: scope.action,
      targetType: target.type,
      targetId: target.id,
      changes,
      ...(scope.ip && { ip: scope.ip }),
      ...(scope.userAgent && { userAgent: scope.userAgent }),
      ttl: Math.floor(now.getTime() / 1000) + RETENTION_SECONDS,
    })
    .commit();
}
