import { type Deps, type Page, paginateInMemory } from '../../platform/index.js';
import { entryHash, toAuditEntry, type AuditEntry } from './audit-chain.js';
import { linkAuditEntries, storedAuditEntries } from './audit-linker.js';
import { openPersonalData } from './personal-data.js';

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
  const page = paginateInMemory(matching, filter.page, filter.perPage);
  return { ...page, items: await openPersonalData(deps.data, tenantId, page.items) };
}

export type Verification = { ok: true; entries: number } | { ok: false; brokenAt: string | null };

/**
 * Links what is not linked yet (entries whose changes committed since the fan-out last ran), then walks the tenant's
 * chain in `position` order: each entry must follow the one before (position + 1, `prevHash` = its hash) and hash to
 * what it stores; the head, read first, must be an entry of the chain with its hash (entries removed from the end leave
 * it ahead). The first remaining entry anchors the walk: older ones expire after 400 days. The first entry that fails
 * is named.
 */
export async function verifyAuditLog(deps: AuditDeps, tenantId: string): Promise<Verification> {
  const { data } = deps;
  const unlinked = (await storedAuditEntries(data, tenantId)).filter((item) => item.position === undefined);
  if (unlinked.length > 0) await linkAuditEntries(data, tenantId, unlinked);
  // The head before the entries: an entry linked in between is then read too, and the head is never ahead of them.
  const { data: head } = await data.entities.auditHead.get({ tenantId }).go({ consistent: true });
  const stored = await storedAuditEntries(data, tenantId);
  // Entries written after the linking above are not the chain's yet; the next verify counts them.
  const chain = stored.filter((item) => item.position !== undefined).sort((a, b) => a.position! - b.position!);
  let previous: { hash: string; position: number } | undefined;
  for (const item of chain) {
    const linked = !previous || (item.prevHash === previous.hash && item.position === previous.position + 1);
    if (!linked || !item.prevHash || entryHash(item.prevHash, toAuditEntry(item)) !== item.hash) return { ok: false, brokenAt: item.entryId };
    previous = { hash: item.hash, position: item.position! };
  }
  if (head && (!previous || head.position > previous.position || chain.find((item) => item.position === head.position)?.hash !== head.hash)) {
    return { ok: false, brokenAt: chain.at(-1)?.entryId ?? null };
  }
  return { ok: true, entries: chain.length };
}
