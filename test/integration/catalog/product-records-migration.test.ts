import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { inject } from 'vitest';
import { describe, expect, it } from 'vitest';
import { migrateProductRecords } from '../../../shared/platform/data/migrations/product-records.js';
import { localData, tableOfItsOwn } from '../../support/table.js';

/** Feedback, reasons and daily counts as an older version wrote them: in their product's own partition. */
async function oldItems(client: DynamoDBDocumentClient, tableName: string, productId: string) {
  const data = localData('all', tableName);
  const feedback = data.entities.feedback.put({ productId, feedbackId: 'fb_1', type: 'bug', message: 'Broken', createdAt: '2026-11-01T00:00:00.000Z', ttl: 2_000_000_000 }).params();
  const count = data.entities.productDaily.put({ productId, day: '2026-11-01', metric: 'feedback', name: 'bug', count: 3 }).params();
  for (const { Item } of [feedback, count] as { Item: Record<string, unknown> }[]) {
    await client.send(new PutCommand({ TableName: tableName, Item: { ...Item, pk: `$licensing#productId_${productId}` } }));
  }
  return { feedbackKey: (feedback as { Item: { sk: string } }).Item.sk, countKey: (count as { Item: { sk: string } }).Item.sk };
}

describe('moving product records to their own partition', () => {
  it('moves old feedback and counts where the service reads them, adds a count that grew meanwhile, and can run again', async () => {
    const tableName = await tableOfItsOwn();
    const client = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: inject('dynamoEndpoint'), region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }));
    const data = localData('all', tableName);
    const productId = 'prd_migrated';
    const { feedbackKey } = await oldItems(client, tableName, productId);
    // The new code counted two more that day before the migration ran.
    await data.entities.productDaily.update({ productId, day: '2026-11-01', metric: 'feedback', name: 'bug' }).add({ count: 2 }).go();
    // The product itself, in its partition, is left alone.
    await client.send(new PutCommand({ TableName: tableName, Item: { pk: `$licensing#productId_${productId}`, sk: '$product_1', __edb_e__: 'product', name: 'Kept' } }));

    expect(await migrateProductRecords(client, tableName)).toEqual({ moved: 1, alreadyThere: 1 });

    const { data: feedback } = await data.entities.feedback.query.byProduct({ productId }).go();
    expect(feedback.map((item) => item.message)).toEqual(['Broken']);
    const { data: counts } = await data.entities.productDaily.query.byProduct({ productId }).go();
    expect(counts.map((item) => item.count)).toEqual([5]);
    const old = await client.send(new GetCommand({ TableName: tableName, Key: { pk: `$licensing#productId_${productId}`, sk: feedbackKey } }));
    expect(old.Item).toBeUndefined();
    const product = await client.send(new GetCommand({ TableName: tableName, Key: { pk: `$licensing#productId_${productId}`, sk: '$product_1' } }));
    expect(product.Item?.name).toBe('Kept');

    expect(await migrateProductRecords(client, tableName)).toEqual({ moved: 0, alreadyThere: 0 });
    expect((await data.entities.productDaily.query.byProduct({ productId }).go()).data.map((item) => item.count)).toEqual([5]);
  });
});
