import type { Deps } from '../runtime.js';
import { paginateInMemory, type Page } from '../pagination.js';
import { AUDIT_SHARDS, entryHash, toAuditEntry, type AuditEntry } from './audit-chain.js';

type AuditDeps = Pick<Deps, 'data'>;

export type AuditFilter = {
  page: number;
  perPage: number;
  actorId?: string;
  action?: string;
  targetType?: string;
  targetId?: string;
  from?: string;
  to?: string;
};

/**
 * A tenant's entries, newest first: one query of its time index (bounded by `from`/`to`), the other filters applied to
 * what it reads. A tenant writes entries at human pace and keeps them 400 days, so a page reads the tenant's range.
 */
export async function listAuditEntries(deps: AuditDeps, tenantId: string, filter: AuditFilter): Promise<Page<AuditEntry>> {
  const byTime = deps.data.entities.auditEntry.query.byTime({ tenantId });
  const ranged =
    filter.from && filter.to
      ? byTime.between({ at: filter.from }, { at: filter.to })
      : filter.from
        ? byTime.gte({ at: filter.from })
        : filter.to
          ? byTime.lte({ at: filter.to })
          : byTime;
  const { data } = await ranged.go({ pages: 'all', order: 'desc' });
  const matching = data
    .map(toAuditEntry)
    .filter(
      (e) =>
        (!filter.actorId || e.actor.id === filter.actorId) &&
        (!filter.action || e.action === filter.action) &&
        (!filter.targetType || e.target.type === filter.targetType) &&
        (!filter.targetId || e.target.id === filter.targetId),
    );
  return paginateInMemory(matching, filter.page, filter.perPage);
}

export type Verification = { ok: true; entries: number } | { ok: false; brokenAt: string | null };

/**
 * Walks every chain shard of the tenant in order: each entry must link to the one before (`prevHash`), hash to what it
 * stores, and the last must be where the shard's head says. The first entry of a shard anchors the walk (its
 * predecessors may have expired after 400 days). The first entry that fails is named.
 */
export async function verifyAuditLog(deps: AuditDeps, tenantId: string): Promise<Verification> {
  const { auditEntry, auditHead } = deps.data.entities;
  let entries = 0;
  for (let shard = 0; shard < AUDIT_SHARDS; shard++) {
    const auditShard = String(shard);
    const [{ data: chain }, { data: head }] = await Promise.all([
      auditEntry.query.byChain({ tenantId, auditShard }).go({ pages: 'all', consistent: true }),
      auditHead.get({ tenantId, auditShard }).go({ consistent: true }),
    ]);
    let previous: { hash: string; position: number } | undefined;
    for (const item of chain) {
      const position = Number(item.position);
      const linked = !previous || (item.prevHash === previous.hash && position === previous.position + 1);
      if (!linked || entryHash(item.prevHash, toAuditEntry(item)) !== item.hash) return { ok: false, brokenAt: item.entryId };
      previous = { hash: item.hash, position };
    }
    // Entries removed from the end of a shard leave its head ahead of the chain.
    if (head && (head.hash !== previous?.hash || head.position !== previous.position)) {
      return { ok: false, brokenAt: chain.at(-1)?.entryId ?? null };
    }
    entries += chain.length;
  }
  return { ok: true, entries };
}
