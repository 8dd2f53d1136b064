import { randomInt } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { DataService, TransactionEntities } from '../data/service.js';
import { newId, sha256Hex } from '../ids.js';
import type { AuditActor, AuditScope } from './audit-scope.js';
import type { Changes } from './item-changes.js';

/**
 * A tenant's log is this many hash chains (shards), each with a head item. A writer appends to a shard picked at
 * random, so concurrent changes of one tenant rarely meet on one head; verifying walks every shard
 * (docs/data-model.md, "Audit log").
 */
export const AUDIT_SHARDS = 16;
/** DECISIONS §17: entries are kept 400 days (DynamoDB's TTL removes them). */
const RETENTION_SECONDS = 400 * 24 * 3600;
/** The `prevHash` of a shard's first entry. */
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

/** A position as the shard's sort key holds it: zero-padded, so the chain sorts in order. */
export const chainPosition = (position: number) => String(position).padStart(12, '0');

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

type Head = { position: number; hash: string } | undefined;

/**
 * The two items that append an entry to a shard: the entry, and the head moved from where it was read (created when
 * the shard has none). A writer that raced another to the same head finds its condition refused and appends again.
 */
export function appendItems(
  tx: Pick<TransactionEntities, 'auditEntry' | 'auditHead'>,
  scope: AuditScope,
  shard: { auditShard: string; head: Head },
  target: { type: string; id: string },
  changes: Changes,
  now: Date,
) {
  const { tenantId } = scope;
  const { auditShard, head } = shard;
  const entry: AuditEntry = {
    id: newId('aud'),
    at: now.toISOString(),
    actor: scope.actor,
    action: scope.action,
    target,
    changes,
    ip: scope.ip ?? null,
    userAgent: scope.userAgent ?? null,
  };
  const prevHash = head?.hash ?? GENESIS_HASH;
  const position = (head?.position ?? 0) + 1;
  const hash = entryHash(prevHash, entry);
  return [
    tx.auditEntry
      .create({
        tenantId,
        auditShard,
        position: chainPosition(position),
        entryId: entry.id,
        at: entry.at,
        actor: entry.actor,
        action: entry.action,
        targetType: target.type,
        targetId: target.id,
        changes,
        ...(scope.ip && { ip: scope.ip }),
        ...(scope.userAgent && { userAgent: scope.userAgent }),
        prevHash,
        hash,
        ttl: Math.floor(now.getTime() / 1000) + RETENTION_SECONDS,
      })
      .commit(),
    head
      ? tx.auditHead
          .patch({ tenantId, auditShard })
          .set({ position, hash })
          .where(({ position: at }, { eq }) => eq(at, head.position))
          .commit()
      : tx.auditHead.create({ tenantId, auditShard, position, hash }).commit(),
  ];
}

/** A shard picked at random, and its head as it is now. */
export async function pickShard(data: DataService, tenantId: string): Promise<{ auditShard: string; head: Head }> {
  const auditShard = String(randomInt(AUDIT_SHARDS));
  const { data: head } = await data.entities.auditHead.get({ tenantId, auditShard }).go({ consistent: true });
  return { auditShard, head: head ? { position: head.position, hash: head.hash } : undefined };
}
