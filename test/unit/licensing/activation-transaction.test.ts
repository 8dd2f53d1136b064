import { afterEach, describe, expect, it } from 'vitest';
import { domainHolder } from '../../../shared/licensing/operations/seat-holder.js';
import { AppError, ServiceUnavailableError } from '../../../shared/platform/errors.js';
import { activateLicense } from '../../../shared/licensing/operations/activate.js';
import type { ActivityRecorder } from '../../../shared/licensing/operations/activity.js';
import { deactivateLicense } from '../../../shared/licensing/operations/deactivate.js';
import type { ProductCatalog, ProductRef } from '../../../shared/licensing/operations/product-catalog.js';
import { stagingRules } from '../../../shared/licensing/operations/staging.js';
import { activationItem, ids, LICENSE_KEY, licenseItem, NOW, seedLicense, TENANT } from '../../support/mock-items.js';
import { mockTable, type MockTable } from '../../support/mock-table.js';

/**
 * Activation and deactivation run the real code (real ElectroDB requests) against a table that answers
 * as DynamoDB would when transactions conflict or are throttled, which DynamoDB Local never does.
 */
const product: ProductRef = { productId: ids.product, tenantId: TENANT, name: 'Widget', slug: 'widget', publicKey: 'pk_widget', deleted: false, signingKeys: [], offlineValidityDays: 30, features: [] };
const context = {
  catalog: { byId: async () => product, byPublicKey: async () => product } as unknown as ProductCatalog,
  activity: { domainSeen: async () => undefined } as ActivityRecorder,
};
// `new.example.com` is a production site (a seat); `new.example` would be a staging site by the default patterns.
const input = { licenseKey: LICENSE_KEY, holder: domainHolder('new.example.com'), ipAddress: '203.0.113.9' };
const staging = { ...input, holder: domainHolder('shop.staging.example.com') };

let table: MockTable;
afterEach(() => table.ddb.restore());

function setUp(license: Record<string, unknown> = licenseItem) {
  table = mockTable();
  seedLicense(table);
  table.seed('license', license);
  return { data: table.data, clock: { now: () => NOW } };
}

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

// Slots of the activation transaction, in order: activation, domain, seat, counters…, event.
describe('activation transaction', () => {
  it('retries a TransactionConflict and then commits', async () => {
    const deps = setUp();
    table.cancelTransactions(['None', 'TransactionConflict'], ['TransactionConflict']);
    expect(await activateLicense(deps, context, input)).toMatchObject({ created: true, activationId: expect.stringMatching(/^act_/) });
    expect(table.transactions()).toHaveLength(3);
  });

  it('answers 503, never a domain error, when the conflicts outlast the retries, having written nothing else', async () => {
    const deps = setUp();
    table.alwaysCancelTransactions(['None', 'None', 'TransactionConflict']);
    expect(await failure(activateLicense(deps, context, input))).toBeInstanceOf(ServiceUnavailableError);
    expect(new Set(table.writes())).toEqual(new Set(['TransactWriteCommand']));
  });

  it('answers 503 when the table throttles every attempt', async () => {
    const deps = setUp();
    table.alwaysCancelTransactions(['None', 'ThrottlingError']);
    expect((await failure(activateLicense(deps, context, input))).statusCode).toBe(503);
  });

  it('reports a refused seat as the seat limit when the license is full', async () => {
    const deps = setUp({ ...licenseItem, activatedCount: 3 });
    table.cancelTransactions(['None', 'None', 'ConditionalCheckFailed']);
    const error = await failure(activateLicense(deps, context, input));
    expect([error.statusCode, error.message]).toEqual([400, 'License seat limit reached']);
  });

  it('returns the existing activation when the domain is already active, even on a full license', async () => {
    const deps = setUp();
    const existing = { activationId: 'act_existing', activatedAt: '2029-01-01T00:00:00.000Z', licenseId: ids.license, domain: 'new.example.com' };
    const stored = table.seed('activeDomain', existing);
    table.remove('activeDomain', existing);
    table.cancelTransactions(['None', { Code: 'ConditionalCheckFailed', Item: stored }, 'ConditionalCheckFailed']);
    expect(await activateLicense(deps, context, input)).toEqual({
      activationId: 'act_existing',
      activatedAt: existing.activatedAt,
      created: false,
      environment: 'production',
      features: [],
    });
    expect(table.writes()).toEqual(['TransactWriteCommand']);
  });
});

// A staging site's transaction has the same slots, with the license's `stagingCount` in place of the seat.
describe('staging activation transaction', () => {
  const stagingSlot = (transaction: { TransactItems?: unknown[] }) =>
    (transaction.TransactItems![2] as { Update: { UpdateExpression: string; ConditionExpression: string; ExpressionAttributeValues: Record<string, unknown> } })
      .Update;

  it('counts a staging site in stagingCount, held by a condition under the limit, and takes no seat even on a full license', async () => {
    const deps = setUp({ ...licenseItem, activatedCount: 3 });
    expect(await activateLicense(deps, context, staging)).toMatchObject({ created: true, environment: 'staging' });
    const [transaction] = table.transactions();
    const slot = stagingSlot(transaction!);
    expect(slot.UpdateExpression).toContain('#stagingCount');
    expect(slot.UpdateExpression).not.toContain('#activatedCount');
    expect(slot.ConditionExpression).toMatch(/attribute_not_exists\(#stagingCount\) OR #stagingCount < :stagingCount\w*/);
    expect(Object.entries(slot.ExpressionAttributeValues).filter(([name]) => name.startsWith(':stagingCount'))).toContainEqual([expect.any(String), 3]);
    // The activation and its domain item say which it is, for views, events and deactivation.
    const [activation, domain] = transaction!.TransactItems! as { Put: { Item: Record<string, unknown> } }[];
    expect([activation!.Put.Item.environment, domain!.Put.Item.environment]).toEqual(['staging', 'staging']);
  });

  it("holds the product's own limit, and its own patterns", async () => {
    const deps = setUp();
    const own = { ...context, catalog: { byId: async () => ({ ...product, staging: stagingRules(['*.preview.shop.com'], 7) }) } as unknown as ProductCatalog };
    expect(await activateLicense(deps, own, { ...input, holder: domainHolder('a.preview.shop.com') })).toMatchObject({ environment: 'staging' });
    expect(Object.values(stagingSlot(table.transactions()[0]!).ExpressionAttributeValues)).toContain(7);
    // `shop.staging.example.com` is not one of its patterns: a seat.
    expect(await activateLicense(deps, own, staging)).toMatchObject({ environment: 'production' });
    expect(table.transactions()[1]!.TransactItems![2]).toMatchObject({ Update: { UpdateExpression: expect.stringContaining('#activatedCount') } });
  });

  it('reports a refused staging place as the staging limit when the license holds the limit', async () => {
    const deps = setUp({ ...licenseItem, stagingCount: 3 });
    table.cancelTransactions(['None', 'None', 'ConditionalCheckFailed']);
    const error = await failure(activateLicense(deps, context, staging));
    expect([error.statusCode, error.message]).toEqual([400, 'Staging activation limit reached']);
  });

  it('tries again when the staging place was refused only because the license changed meanwhile', async () => {
    const deps = setUp({ ...licenseItem, stagingCount: 1 });
    table.cancelTransactions(['None', 'None', 'ConditionalCheckFailed']);
    expect(await activateLicense(deps, context, staging)).toMatchObject({ created: true, environment: 'staging' });
    expect(table.transactions()).toHaveLength(2);
  });

  it('retries a TransactionConflict and then commits', async () => {
    const deps = setUp();
    table.cancelTransactions(['None', 'None', 'TransactionConflict']);
    expect(await activateLicense(deps, context, staging)).toMatchObject({ created: true, environment: 'staging' });
    expect(table.transactions()).toHaveLength(2);
  });
});

// Slots of the deactivation transaction, in order: activation, domain, seat, counters…, event.
describe('deactivation transaction', () => {
  const deactivate = { licenseKey: LICENSE_KEY, holder: domainHolder(activationItem.domain), ipAddress: '203.0.113.9' };

  it('retries a TransactionConflict and then commits', async () => {
    const deps = setUp();
    table.cancelTransactions(['None', 'None', 'TransactionConflict']);
    await deactivateLicense(deps, context, deactivate);
    expect(table.transactions()).toHaveLength(2);
  });

  it('answers 503 when the table throttles every attempt, having written nothing else', async () => {
    const deps = setUp();
    table.alwaysCancelTransactions(['ThrottlingError']);
    expect(await failure(deactivateLicense(deps, context, deactivate))).toBeInstanceOf(ServiceUnavailableError);
    expect(new Set(table.writes())).toEqual(new Set(['TransactWriteCommand']));
  });

  it('does not end an activation without its seat when the count was read before that activation committed', async () => {
    // The license read said 0 activations; the activation being ended committed after that read.
    const deps = setUp({ ...licenseItem, activatedCount: 0 });
    const stale = { licenseKey: LICENSE_KEY, holder: domainHolder(activationItem.domain), ipAddress: '203.0.113.9' };
    table.cancelTransactionAfter(['None', 'None', 'ConditionalCheckFailed'], () => table.seed('license', licenseItem));
    await deactivateLicense(deps, context, stale);
    const [first, second] = table.transactions().map((t) => t.TransactItems![2]);
    // First the check that the count is still 0 (refused), then, read again, the seat given back.
    expect(first).toHaveProperty('ConditionCheck');
    expect(second).toMatchObject({ Update: { UpdateExpression: expect.stringContaining('#activatedCount') } });
  });

  it('copies the last check its domain item holds, and reads it again when a check lands before the write', async () => {
    const deps = setUp();
    const hold = { licenseId: ids.license, domain: activationItem.domain, activationId: ids.activation, activatedAt: activationItem.activatedAt };
    table.seed('activeDomain', { ...hold, lastCheckedAt: '2029-12-31T23:00:00.000Z', lastIpAddress: '198.51.100.1' });
    // A validate records a check between the read of the domain item and the transaction: its delete is refused.
    table.cancelTransactionAfter(['None', 'ConditionalCheckFailed'], () =>
      table.seed('activeDomain', { ...hold, lastCheckedAt: '2029-12-31T23:59:00.000Z', lastIpAddress: '198.51.100.2' }),
    );
    await deactivateLicense(deps, context, { ...deactivate, ipAddress: '203.0.113.7' });
    const [first, second] = table.transactions().map((t) => t.TransactItems!);
    expect(first![1]).toMatchObject({ Delete: { ExpressionAttributeValues: expect.objectContaining({ ':lastCheckedAt0': '2029-12-31T23:00:00.000Z' }) } });
    expect(second![0]!.Update!.ExpressionAttributeValues).toMatchObject({ ':lastCheckedAt_u0': '2029-12-31T23:59:00.000Z', ':lastIpAddress_u0': '203.0.113.7' });
    expect(second![1]).toMatchObject({ Delete: { ExpressionAttributeValues: expect.objectContaining({ ':lastCheckedAt0': '2029-12-31T23:59:00.000Z' }) } });
  });

  it("gives a staging site's place back to stagingCount, not a seat", async () => {
    const deps = setUp({ ...licenseItem, stagingCount: 1 });
    const site = { ...activationItem, activationId: 'act_bbbbbbbbbbbbbbbbbbbbbbbb', domain: 'shop.test', environment: 'staging' };
    table.seed('activation', site);
    table.seed('activeDomain', { licenseId: ids.license, domain: site.domain, activationId: site.activationId, activatedAt: site.activatedAt, environment: 'staging' });
    await deactivateLicense(deps, context, { ...deactivate, holder: domainHolder(site.domain) });
    const seat = table.transactions()[0]!.TransactItems![2] as { Update: { UpdateExpression: string; ConditionExpression: string } };
    expect(seat.Update.UpdateExpression).toContain('#stagingCount');
    expect(seat.Update.UpdateExpression).not.toContain('#activatedCount');
    expect(seat.Update.ConditionExpression).toContain('#stagingCount > ');
  });

  it('answers "Activation not found" when someone else deactivated it first', async () => {
    const deps = setUp();
    table.cancelTransactions(['ConditionalCheckFailed']);
    const error = await failure(deactivateLicense(deps, context, deactivate));
    expect([error.statusCode, error.message]).toEqual([400, 'Activation not found']);
  });
});
