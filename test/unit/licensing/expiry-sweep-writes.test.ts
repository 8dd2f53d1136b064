import { afterEach, describe, expect, it } from 'vitest';
import { expiryShard } from '../../../shared/licensing/licenses/expiry-items.js';
import { sweepExpiredLicenses } from '../../../shared/licensing/licenses/expiry-sweep.js';
import { ids, licenseItem, NOW, seedLicense, seedProduct, TENANT } from '../../support/mock-items.js';
import { mockTable, type MockTable } from '../../support/mock-table.js';

/**
 * The expiry sweep under the failures DynamoDB Local never produces: a conflict is retried and the
 * license expires; a license the table keeps refusing is left, untouched, for the next run, and the
 * run goes on with the others.
 */
const expiresAt = new Date(NOW.getTime() - 60_000).toISOString();
let table: MockTable;
afterEach(() => table.ddb.restore());

function setUp() {
  table = mockTable();
  seedProduct(table);
  seedLicense(table);
  table.seed('license', { ...licenseItem, expiresAt });
  table.seed('licenseExpiry', { shard: expiryShard(ids.license), expiresAt, licenseId: ids.license, tenantId: TENANT, productId: ids.product });
  return { data: table.data, clock: { now: () => NOW } };
}

describe('expiry sweep', () => {
  it('retries a transaction that met a conflict and expires the license', async () => {
    const deps = setUp();
    table.cancelTransactions(['TransactionConflict']);
    expect(await sweepExpiredLicenses(deps)).toEqual({ expired: 1, cleared: 0, retried: 0 });
    expect(table.writes()).toEqual(['TransactWriteCommand', 'TransactWriteCommand']);
  });

  it('leaves a license the table keeps throttling for the next run, having written nothing else', async () => {
    const deps = setUp();
    table.alwaysCancelTransactions(['ThrottlingError']);
    expect(await sweepExpiredLicenses(deps)).toEqual({ expired: 0, cleared: 0, retried: 1 });
    expect(new Set(table.writes())).toEqual(new Set(['TransactWriteCommand']));
  });
});
