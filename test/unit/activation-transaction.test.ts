import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors.js';
import { createDataService } from '../../shared/data/service.js';
import { activateLicense } from '../../shared/licensing/activate.js';
import type { ActivityRecorder } from '../../shared/licensing/activity.js';
import type { ProductCatalog, ProductRef } from '../../shared/licensing/product-catalog.js';

/**
 * DynamoDB Local never cancels a transaction for a conflict or for throttling, so these cases run the
 * real activation code (real ElectroDB requests) against a client that answers as DynamoDB would.
 */
const now = new Date('2030-01-01T00:00:00.000Z');
const product: ProductRef = { productId: 'prd_1', tenantId: 'usr_1', name: 'Widget', slug: 'widget', deleted: false };
const license = {
  licenseKey: 'WIDGET-AAAA-BBBB-CCCC-DDDD',
  licenseId: 'lic_1',
  tenantId: 'usr_1',
  productId: 'prd_1',
  customerEmail: 'buyer@example.com',
  status: 'active' as const,
  seats: 3,
  activatedCount: 1,
  createdAt: now.toISOString(),
  updatedAt: now.toISOString(),
};

type Reason = { Code: string; Item?: Record<string, unknown> };

/** A document client whose transaction answers come from `transactions`, one per call, then success. */
function fakeStore(transactions: Reason[][], storedLicense: Record<string, unknown> = license) {
  const calls = { transactions: 0, reads: 0 };
  const schema = createDataService({ send: async () => ({}) } as never, 'table');
  const licenseItem = schema.entities.license.put(storedLicense as typeof license).params().Item;
  const client = {
    send: async (command: unknown) => {
      if (command instanceof GetCommand) {
        calls.reads++;
        return { Item: licenseItem };
      }
      if (command instanceof TransactWriteCommand) {
        const reasons = transactions[calls.transactions++];
        if (!reasons) return {};
        const count = command.input.TransactItems!.length;
        const all = Array.from({ length: count }, (_, i) => reasons[i] ?? { Code: 'None' });
        throw Object.assign(new Error('Transaction cancelled'), { name: 'TransactionCanceledException', CancellationReasons: all });
      }
      throw new Error(`unexpected command ${(command as object).constructor.name}`);
    },
  };
  const deps = { data: createDataService(client as never, 'table'), clock: { now: () => now } };
  const context = {
    catalog: { byId: async () => product, bySlug: async () => product, byPublicKey: async () => product } as unknown as ProductCatalog,
    activity: { activationSeen: async () => undefined, domainSeen: async () => undefined } as unknown as ActivityRecorder,
  };
  return { deps, context, calls };
}

const input = { licenseKey: license.licenseKey, domain: 'example.com', ipAddress: '203.0.113.9' };

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('activation transaction', () => {
  it('retries a TransactionConflict and then commits', async () => {
    const { deps, context, calls } = fakeStore([[{ Code: 'None' }, { Code: 'TransactionConflict' }], [{ Code: 'TransactionConflict' }]]);
    const result = await activateLicense(deps, context, input);
    expect(result).toMatchObject({ created: true, activationId: expect.stringMatching(/^act_/) });
    expect(calls.transactions).toBe(3);
  });

  it('answers 503, never a domain error, when the conflicts outlast the retries', async () => {
    const conflicts = Array.from({ length: 20 }, () => [{ Code: 'None' }, { Code: 'None' }, { Code: 'TransactionConflict' }]);
    const { deps, context } = fakeStore(conflicts);
    expect((await failure(activateLicense(deps, context, input))).statusCode).toBe(503);
  });

  it('answers 503 when the table is throttled', async () => {
    const { deps, context, calls } = fakeStore([[{ Code: 'None' }, { Code: 'ThrottlingError' }]]);
    expect((await failure(activateLicense(deps, context, input))).statusCode).toBe(503);
    expect(calls.transactions).toBe(1);
  });

  it('reports a refused seat as the seat limit when the license is full', async () => {
    const full = { ...license, activatedCount: 3 };
    const { deps, context } = fakeStore([[{ Code: 'None' }, { Code: 'None' }, { Code: 'ConditionalCheckFailed' }]], full);
    const error = await failure(activateLicense(deps, context, input));
    expect([error.statusCode, error.message]).toEqual([400, 'License seat limit reached']);
  });

  it('returns the existing activation when the domain is already active, even on a full license', async () => {
    const existing = { activationId: 'act_existing', activatedAt: '2029-01-01T00:00:00.000Z', licenseId: 'lic_1', domain: 'example.com' };
    const schema = createDataService({ send: async () => ({}) } as never, 'table');
    // Cancellation reasons carry the old item in DynamoDB's wire format.
    const stored = marshall(schema.entities.activeDomain.put(existing).params().Item);
    const { deps, context, calls } = fakeStore([
      [{ Code: 'None' }, { Code: 'ConditionalCheckFailed', Item: stored }, { Code: 'ConditionalCheckFailed' }],
    ]);
    expect(await activateLicense(deps, context, input)).toEqual({
      activationId: 'act_existing',
      activatedAt: '2029-01-01T00:00:00.000Z',
      created: false,
    });
    expect(calls.reads).toBe(1);
  });
});
