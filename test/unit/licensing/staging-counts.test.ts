import { afterEach, describe, expect, it } from 'vitest';
import { deleteLicense } from '../../../shared/licensing/licenses/delete-license.js';
import { regenerateLicenseKey } from '../../../shared/licensing/licenses/regenerate-license.js';
import { revokeLicense } from '../../../shared/licensing/licenses/revoke-license.js';
import { activationItem, ids, LICENSE_KEY, licenseItem, NOW, seedLicense, seedProduct, TENANT } from '../../support/mock-items.js';
import { mockTable, type MockTable } from '../../support/mock-table.js';

/**
 * The writes that copy, drop or move a license's counts by what they read hold its `stagingCount` as they hold
 * its `activatedCount`: a staging site activated between their read and their write must refuse them, or the
 * license would lose count of it. Checked on the requests sent, since DynamoDB Local cannot be made to race on cue
 * (two activations in one millisecond leave the same `updatedAt`, so that alone does not catch it).
 */
let table: MockTable;
afterEach(() => table.ddb.restore());

const staging = {
  ...activationItem,
  activationId: 'act_bbbbbbbbbbbbbbbbbbbbbbbb',
  domain: 'shop.test',
  environment: 'staging',
};

function setUp(license: Record<string, unknown>) {
  table = mockTable();
  seedProduct(table);
  seedLicense(table);
  table.seed('license', license);
  return { data: table.data, clock: { now: () => NOW } };
}

type Write = { ConditionExpression?: string; UpdateExpression?: string; ExpressionAttributeValues?: Record<string, unknown>; Key?: Record<string, unknown> };
/** The write of the license item (by its key) in the first transaction. */
function licenseWrite(): Write {
  const items = table.transactions()[0]!.TransactItems! as Record<string, Write>[];
  const write = items.map((item) => item.Delete ?? item.Update ?? item.ConditionCheck).find((w) => String(w?.Key?.pk).includes(`licenseKey_${LICENSE_KEY}`));
  return write!;
}
const valuesOf = (write: Write) => Object.entries(write.ExpressionAttributeValues ?? {});

describe('license writes that hold stagingCount', () => {
  it('regenerate moves the license only while both counts are as read', async () => {
    const deps = setUp({ ...licenseItem, stagingCount: 2 });
    await regenerateLicenseKey(deps, TENANT, ids.license);
    const write = licenseWrite();
    expect(write.ConditionExpression).toMatch(/#activatedCount = :activatedCount\w* AND #stagingCount = :stagingCount\w*/);
    expect(valuesOf(write).filter(([name]) => name.startsWith(':stagingCount'))).toEqual([[expect.any(String), 2]]);
  });

  it('regenerate of a license that never had a staging site holds that it still has none', async () => {
    const deps = setUp(licenseItem);
    await regenerateLicenseKey(deps, TENANT, ids.license);
    expect(licenseWrite().ConditionExpression).toMatch(/\(attribute_not_exists\(#stagingCount\) OR #stagingCount = :stagingCount\w*\)/);
  });

  it('delete drops the license only while both counts are as read', async () => {
    const deps = setUp({ ...licenseItem, stagingCount: 1 });
    table.seed('activation', staging);
    table.afterCommit(() => {
      table.remove('license', licenseItem);
      for (const activation of [activationItem, staging]) table.remove('activation', activation);
    });
    await deleteLicense(deps, TENANT, ids.license);
    expect(licenseWrite().ConditionExpression).toMatch(/#activatedCount = :activatedCount\w* AND #stagingCount = :stagingCount\w*/);
  });

  it("revoke gives back each activation's own counter, conditioned on both counts", async () => {
    const deps = setUp({ ...licenseItem, activatedCount: 1, stagingCount: 1 });
    table.seed('activation', staging);
    table.afterCommit(() => {
      table.seed('license', { ...licenseItem, status: 'revoked', activatedCount: 0, stagingCount: 0 });
      for (const activation of [activationItem, staging]) table.seed('activation', { ...activation, status: 'deactivated', deactivatedAt: NOW.toISOString() });
    });
    expect(await revokeLicense(deps, TENANT, ids.license)).toMatchObject({ status: 'revoked', activatedCount: 0, stagingCount: 0 });
    const write = licenseWrite();
    // One production and one staging site ended: each count goes down by one.
    expect(write.UpdateExpression).toContain('#activatedCount = (if_not_exists(#activatedCount, :activatedCount_default_value_u0) - :activatedCount_u0)');
    expect(write.UpdateExpression).toContain('#stagingCount = (if_not_exists(#stagingCount, :stagingCount_default_value_u0) - :stagingCount_u0)');
    expect(write.ExpressionAttributeValues).toMatchObject({ ':activatedCount_u0': 1, ':stagingCount_u0': 1 });
    expect(write.ConditionExpression).toMatch(/#activatedCount = :activatedCount\w* AND #stagingCount = :stagingCount\w*/);
  });
});
