import { ServiceUnavailableError } from '../../platform/index.js';
import { type DataService, type Slot, transact } from '../../platform/data/index.js';
import { entryHash, GENESIS_HASH, toAuditEntry, type StoredAuditEntry } from './audit-chain.js';

/** Entries linked per transaction: DynamoDB's 100 items, less the head. */
const LINKS_PER_TRANSACTION = 99;
/** Rounds of "another linker moved the head first" before giving up (the stream delivers the batch again). */
const LINK_ROUNDS = 20;

/** Chain order among entries linked together: as they happened, the id breaking ties. */
const byTime = (a: StoredAuditEntry, b: StoredAuditEntry) => (a.at === b.at ? (a.entryId < b.entryId ? -1 : 1) : a.at < b.at ? -1 : 1);

/**
 * Links committed entries into the tenant's chain (docs/data-model.md, "Audit log"): each gets the next `position`,
 * the `prevHash` of the chain's end and its `hash` (and `prevAt`, the time of the entry before it), and the head moves to
 * the last of them, in one transaction, on
 * condition that the head is still where it was read and that no entry is linked yet. The table stream's fan-out links
 * entries as they are written, and `verify` links what has not been yet, so two linkers may meet: the one refused
 * reads the head again and links what is still unlinked. No change of the tenant's data ever waits for this.
 */
export async function linkAuditEntries(data: DataService, tenantId: string, entries: StoredAuditEntry[]): Promise<void> {
  let unlinked = [...entries].sort(byTime);
  for (let round = 0; unlinked.length > 0; round++) {
    if (round === LINK_ROUNDS) throw new ServiceUnavailableError();
    const { data: head } = await data.entities.auditHead.get({ tenantId }).go({ consistent: true });
    const batch = unlinked.slice(0, LINKS_PER_TRANSACTION);
    let end: { position: number; hash: string; at?: string } = { position: head?.position ?? 0, hash: head?.hash ?? GENESIS_HASH, ...(head?.at && { at: head.at }) };
    const links = batch.map((entry) => {
      const link = { position: end.position + 1, prevHash: end.hash, hash: entryHash(end.hash, toAuditEntry(entry)), ...(end.at && { prevAt: end.at }) };
      end = { position: link.position, hash: link.hash, at: entry.at };
      return link;
    });
    const result = await transact(data, (tx) => {
      const slots: Record<string, Slot> = {
        head: head
          ? tx.auditHead
              .patch({ tenantId })
              .set(end)
              .where(({ position }, { eq }) => eq(position, head.position))
              .commit()
          : tx.auditHead.create({ tenantId, ...end }).commit(),
      };
      batch.forEach((entry, i) => {
        slots[entry.entryId] = tx.auditEntry
          .patch({ tenantId, entryId: entry.entryId })
          .set(links[i]!)
          .where(({ position }, { notExists }) => notExists(position))
          .commit();
      });
      return slots;
    });
    if (result.committed) {
      unlinked = unlinked.slice(batch.length);
      continue;
    }
    // Entries another linker took (or that expired) are dropped; a moved head is read again.
    const taken = new Set(batch.filter((entry) => result.refused(entry.entryId)).map((entry) => entry.entryId));
    unlinked = unlinked.filter((entry) => !taken.has(entry.entryId));
  }
}

/** A tenant's entries as stored, linked or not, read strongly consistently. */
export async function storedAuditEntries(data: DataService, tenantId: string): Promise<StoredAuditEntry[]> {
  const { data: items } = await data.entities.auditEntry.query.byTenant({ tenantId }).go({ pages: 'all', consistent: true });
  return items;
}
