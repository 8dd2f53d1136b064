import { describe, expect, it } from 'vitest';
import { linkAuditEntries, storedAuditEntries } from '../../../shared/identity/audit/audit-linker.js';
import { verifyAuditLog } from '../../../shared/identity/audit/audit-log.js';
import { newId } from '../../../shared/platform/ids.js';
import { systemClock } from '../../../shared/platform/runtime.js';
import { localData } from '../../support/table.js';

describe('audit chain linker', () => {
  it('links each entry exactly once when linkers meet (the stream and verifies), across transactions of 99', async () => {
    // The webhook worker's key access: what the fan-out, which links in AWS, is allowed.
    const data = localData('webhookWorker');
    const tenantId = newId('usr');
    const now = new Date();
    const entries = await Promise.all(
      Array.from({ length: 150 }, async (_, i) => {
        const entry = {
          tenantId,
          entryId: newId('aud'),
          at: new Date(now.getTime() + i).toISOString(),
          actor: { type: 'system' as const, id: 'system' },
          action: 'customer.create',
          targetType: 'customer',
          targetId: `cus_${i}`,
          changes: { email: [null, `c${i}@example.com`] },
          ttl: Math.floor(now.getTime() / 1000) + 3600,
        };
        await data.entities.auditEntry.create(entry).go();
        return entry;
      }),
    );

    // Three linkers at once on the same entries, besides the local stack's fan-out, which the inserts reach too.
    await Promise.all([linkAuditEntries(data, tenantId, entries), linkAuditEntries(data, tenantId, entries.slice(40)), linkAuditEntries(data, tenantId, entries.reverse())]);

    const stored = await storedAuditEntries(data, tenantId);
    expect(stored.map((entry) => entry.position).sort((a, b) => a! - b!)).toEqual(Array.from({ length: 150 }, (_, i) => i + 1));
    expect(await verifyAuditLog({ data, clock: systemClock }, tenantId)).toEqual({ ok: true, entries: 150 });
    // Each links to the one before it in time.
    const byPosition = stored.sort((a, b) => a.position! - b.position!);
    expect(byPosition.slice(1).map((entry) => entry.prevAt)).toEqual(byPosition.slice(0, -1).map((entry) => entry.at));
  });
});
