import { afterEach, describe, expect, it } from 'vitest';
import { AppError, ServiceUnavailableError } from '../../shared/errors.js';
import { activateLicense } from '../../shared/licensing/activate.js';
import type { ActivityRecorder } from '../../shared/licensing/activity.js';
import { deactivateLicense } from '../../shared/licensing/deactivate.js';
import type { ProductCatalog, ProductRef } from '../../shared/licensing/product-catalog.js';
import { activationItem, ids, LICENSE_KEY, licenseItem, NOW, seedLicense, TENANT } from '../support/mock-items.js';
import { mockTable, type MockTable } from '../support/mock-table.js';

/**
 * Activation and deactivation run the real code (real ElectroDB requests) against a table that answers
 * as DynamoDB would when transactions conflict or are throttled, which DynamoDB Local never does.
 */
const product: ProductRef = { productId: ids.product, tenantId: TENANT, name: 'Widget', slug: 'widget', deleted: false, signingKeys: [], offlineValidityDays: 30 };
const context = {
  catalog: { byId: async () => product, byPublicKey: async () => product } as unknown as ProductCatalog,
  activity: { domainSeen: async () => undefined } as ActivityRecorder,
};
const input = { licenseKey: LICENSE_KEY, domain: 'new.example', ipAddress: '203.0.113.9' };

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
    const existing = { activationId: 'act_existing', activatedAt: '2029-01-01T00:00:00.000Z', licenseId: ids.license, domain: 'new.example' };
    const stored = table.seed('activeDomain', existing);
    table.remove('activeDomain', existing);
    table.cancelTransactions(['None', { Code: 'ConditionalCheckFailed', Item: stored }, 'ConditionalCheckFailed']);
    expect(await activateLicense(deps, context, input)).toEqual({ activationId: 'act_existing', activatedAt: existing.activatedAt, created: false });
    expect(table.writes()).toEqual(['TransactWriteCommand']);
  });
});

// Slots of the deactivation transaction, in order: activation, domain, seat, counters…, event.
describe('deactivation transaction', () => {
  const deactivate = { licenseKey: LICENSE_KEY, domain: activationItem.domain, ipAddress: '203.0.113.9' };

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
    const stale = { licenseKey: LICENSE_KEY, domain: activationItem.domain, ipAddress: '203.0.113.9' };
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

  it('answers "Activation not found" when someone else deactivated it first', async () => {
    const deps = setUp();
    table.cancelTransactions(['ConditionalCheckFailed']);
    const error = await failure(deactivateLicense(deps, context, deactivate));
    expect([error.statusCode, error.message]).toEqual([400, 'Activation not found']);
  });
});
