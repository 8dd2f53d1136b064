import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { withLastChecks } from '../../../shared/licensing/activations/last-check.js';
import { activationItem, ids, NOW } from '../../support/mock-items.js';
import { mockTable, type MockTable } from '../../support/mock-table.js';

/** Views take an active activation's last check from its domain item, and a deactivated one's from its own item. */
let table: MockTable;
afterEach(() => table.ddb.restore());

const checkedAt = '2029-12-31T23:59:00.000Z';
const hold = { licenseId: ids.license, domain: activationItem.domain, activationId: ids.activation, activatedAt: NOW.toISOString() };

describe('last checks in activation views', () => {
  it("shows the domain item's check on the activation that holds it, and a deactivated activation's own", async () => {
    table = mockTable();
    table.seed('activeDomain', { ...hold, lastCheckedAt: checkedAt, lastIpAddress: '198.51.100.2' });
    const ended = { ...activationItem, activationId: 'act_bbbbbbbbbbbbbbbbbbbbbbbb', domain: 'old.example', status: 'deactivated' as const, lastCheckedAt: '2029-01-01T00:00:00.000Z' };
    // Another activation of the same domain that a lagging index still lists as active: not the holder.
    const stale = { ...activationItem, activationId: 'act_cccccccccccccccccccccccc', status: 'active' as const };
    const shown = await withLastChecks({ data: table.data }, [{ ...activationItem, status: 'active' }, ended, stale]);
    expect(shown.map((a) => a.lastCheckedAt)).toEqual([checkedAt, ended.lastCheckedAt, undefined]);
    expect(shown[0]!.lastIpAddress).toBe('198.51.100.2');
    // One batch, naming the shared domain once (a batch naming a key twice is refused).
    const batches = table.ddb.commandCalls(BatchGetCommand).map((call) => call.args[0].input.RequestItems!.table!.Keys);
    expect(batches).toHaveLength(1);
    expect(batches[0]).toHaveLength(1);
  });

  it('reads nothing when no activation is active', async () => {
    table = mockTable();
    const ended = { ...activationItem, status: 'deactivated' as const };
    expect(await withLastChecks({ data: table.data }, [ended])).toEqual([ended]);
    expect(table.ddb.commandCalls(BatchGetCommand)).toHaveLength(0);
  });
});
