import { describe, expect, it } from 'vitest';
import { entryHash, GENESIS_HASH, toAuditEntry, type StoredAuditEntry } from '../../../shared/identity/audit/audit-chain.js';
import { CHAIN_BREAKS, checkChain } from '../../../shared/identity/audit/audit-log.js';

const DAY_MS = 24 * 3600 * 1000;
const now = new Date('2027-06-01T12:00:00Z');
const daysAgo = (days: number) => new Date(now.getTime() - days * DAY_MS).toISOString();

/** A linked chain of entries made `days` ago each (oldest first), positions from 1. */
function chainOf(days: number[]): StoredAuditEntry[] {
  let end = { hash: GENESIS_HASH, at: undefined as string | undefined };
  return days.map((age, i) => {
    const item: StoredAuditEntry = {
      entryId: `aud_${String(i).padStart(24, 'a')}`,
      at: daysAgo(age),
      actor: { type: 'system', id: 'test' },
      action: 'customer.create',
      targetType: 'customer',
      targetId: `cus_${i}`,
      changes: {},
      position: i + 1,
      prevHash: end.hash,
      ...(end.at && { prevAt: end.at }),
    };
    item.hash = entryHash(end.hash, toAuditEntry(item));
    end = { hash: item.hash, at: item.at };
    return item;
  });
}
const headOf = (chain: StoredAuditEntry[]) => ({ position: chain.at(-1)!.position!, hash: chain.at(-1)!.hash! });

describe('checking an audit chain whose oldest entries are gone (DECISIONS §20)', () => {
  it('accepts a chain whose missing oldest entries are past the 400-day retention: they expired', () => {
    const chain = chainOf([420, 401, 30, 2]);
    expect(checkChain(chain.slice(2), headOf(chain), now)).toEqual({ ok: true, entries: 2 });
  });

  it('names the oldest entry kept when the one before it was younger than 400 days: it was deleted', () => {
    const chain = chainOf([420, 399, 30, 2]);
    expect(checkChain(chain.slice(2), headOf(chain), now)).toEqual({ ok: false, brokenAt: chain[2]!.entryId, reason: CHAIN_BREAKS.missingBeforeOldest });
  });

  it('cannot tell for entries linked before their predecessor\'s time was kept, and takes them as they are', () => {
    const chain = chainOf([30, 20, 10]).map(({ prevAt: _prevAt, ...item }) => item);
    expect(checkChain(chain.slice(1), headOf(chain), now)).toEqual({ ok: true, entries: 2 });
  });

  it('tells a gap, a changed entry and a lost end apart', () => {
    const chain = chainOf([5, 4, 3, 2]);
    expect(checkChain([chain[0]!, chain[2]!, chain[3]!], headOf(chain), now)).toMatchObject({ brokenAt: chain[2]!.entryId, reason: CHAIN_BREAKS.gap });
    const edited = chain.map((item, i) => (i === 1 ? { ...item, action: 'customer.delete' } : item));
    expect(checkChain(edited, headOf(chain), now)).toMatchObject({ brokenAt: chain[1]!.entryId, reason: CHAIN_BREAKS.changed });
    expect(checkChain(chain.slice(0, 3), headOf(chain), now)).toMatchObject({ brokenAt: chain[2]!.entryId, reason: CHAIN_BREAKS.missingAtEnd });
  });
});
