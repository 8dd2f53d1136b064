import { type Deps, type Page, paginateInMemory } from '../../platform/index.js';
import { entryHash, RETENTION_SECONDS, toAuditEntry, type AuditEntry, type StoredAuditEntry } from './audit-chain.js';
import { linkAuditEntries, storedAuditEntries } from './audit-linker.js';
import { openPersonalData } from './personal-data.js';

type AuditDeps = Pick<Deps, 'data' | 'clock'>;

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

/** Why a chain is broken, as `GET /api/audit-log/verify` says it. */
export const CHAIN_BREAKS = {
  changed: 'This entry was changed after it was written',
  gap: 'Entries are missing between this entry and the one before it',
  missingBeforeOldest: 'Entries younger than the 400-day retention are missing before the oldest one kept',
  missingAtEnd: 'Entries are missing at the end of the chain, after this one',
} as const;

export type Verification = { ok: true; entries: number } | { ok: false; brokenAt: string | null; reason: string };
type Head = { position: number; hash: string };

/**
 * Walks a tenant's linked entries in `position` order: each must follow the one before (position + 1, `prevHash` = its
 * hash) and hash to what it stores; the head must be an entry of the chain with its hash (entries removed from the end
 * leave it ahead). The oldest entry kept anchors the walk, as older ones expire after 400 days; but one whose
 * predecessor (`prevAt`) is younger than that lost it to a deletion (DECISIONS §20). The first entry that fails is named.
 */
export function checkChain(chain: StoredAuditEntry[], head: Head | undefined, now: Date): Verification {
  let previous: { hash: string; position: number } | undefined;
  for (const item of chain) {
    if (!previous && item.position! > 1 && item.prevAt && Date.parse(item.prevAt) + RETENTION_SECONDS * 1000 > now.getTime()) {
      return { ok: false, brokenAt: item.entryId, reason: CHAIN_BREAKS.missingBeforeOldest };
    }
    if (previous && !(item.prevHash === previous.hash && item.position === previous.position + 1)) {
      return { ok: false, brokenAt: item.entryId, reason: CHAIN_BREAKS.gap };
    }
    if (!item.prevHash || entryHash(item.prevHash, toAuditEntry(item)) !== item.hash) return { ok: false, brokenAt: item.entryId, reason: CHAIN_BREAKS.changed };
    previous = { hash: item.hash, position: item.position! };
  }
  if (head && (!previous || head.position > previous.position || chain.find((item) => item.position === head.position)?.hash !== head.hash)) {
    return { ok: false, brokenAt: chain.at(-1)?.entryId ?? null, reason: CHAIN_BREAKS.missingAtEnd };
  }
  return { ok: true, entries: chain.length };
}

/**
 * Links what is not linked yet (entries whose changes committed since the fan-out last ran), then checks the tenant's
 * chain (`checkChain`) against its head, read before the entries.
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
  return checkChain(chain, head ?? undefined, deps.clock.now());
}
