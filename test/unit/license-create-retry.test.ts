import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { createDataService } from '../../shared/data/service.js';
import { createLicense } from '../../shared/licenses/create-license.js';

/**
 * DynamoDB Local never cancels a transaction for a conflict with another one; here the table is a
 * stand-in that does, so the retry path runs.
 */
function tableThatConflicts(conflicts: number) {
  const client = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } }));
  const data = createDataService(client, 'test');
  const product = data.entities.product
    .put({
      productId: 'prd_1', tenantId: 'usr_1', name: 'Widget', slug: 'widget', productType: 'plugin', status: 'active',
      isPremium: false, requiresLicense: true, managesReleases: true, licensePrefix: 'WID-', publicKey: 'pk_1',
      plansCount: 0, createdAt: '2025-01-01T00:00:00.000Z', updatedAt: '2025-01-01T00:00:00.000Z',
    })
    .params<{ Item: Record<string, unknown> }>().Item;
  const transactions: { TransactItems: unknown[] }[] = [];
  client.send = (async (command: { constructor: { name: string }; input: { Key?: { pk?: string }; TransactItems?: unknown[] } }) => {
    if (command.constructor.name === 'GetCommand') return command.input.Key?.pk === product.pk ? { Item: product } : {};
    if (command.constructor.name === 'TransactWriteCommand') {
      transactions.push(command.input as { TransactItems: unknown[] });
      if (transactions.length <= conflicts) {
        throw Object.assign(new Error('Transaction cancelled'), {
          name: 'TransactionCanceledException',
          CancellationReasons: command.input.TransactItems!.map((_, i) => ({ Code: i === 0 ? 'TransactionConflict' : 'None' })),
        });
      }
      return {};
    }
    throw new Error(`unexpected ${command.constructor.name}`);
  }) as never;
  return { deps: { data, clock: { now: () => new Date('2025-06-01T00:00:00Z') } }, transactions };
}

describe('createLicense under transaction conflicts', () => {
  it('retries a transaction cancelled by a conflict and commits once', async () => {
    const { deps, transactions } = tableThatConflicts(2);
    const license = await createLicense(deps, 'usr_1', { productId: 'prd_1', customerEmail: 'a@example.com' });
    expect(transactions).toHaveLength(3);
    expect(license).toMatchObject({ status: 'active', seats: 1, customerEmail: 'a@example.com', product: { id: 'prd_1', slug: 'widget' } });
    expect(license.licenseKey).toMatch(/^WID-/);
  });

  it('gives up with 409 when every attempt conflicts, having written nothing', async () => {
    const { deps, transactions } = tableThatConflicts(Infinity);
    await expect(createLicense(deps, 'usr_1', { productId: 'prd_1', customerEmail: 'a@example.com' })).rejects.toMatchObject({ statusCode: 409 });
    expect(transactions).toHaveLength(5);
  });
});
