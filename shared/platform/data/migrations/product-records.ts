import { type DynamoDBDocumentClient, ScanCommand, TransactWriteCommand, type ScanCommandOutput } from '@aws-sdk/lib-dynamodb';
import { SERVICE_NAME } from '../table-schema.js';

/** The entities that moved from their product's partition to its records partition (shared/platform/data/keys.ts `productRecordsKey`). */
const MOVED_ENTITIES = ['feedback', 'deactivationReason', 'productDaily'] as const;
const OLD_PREFIX = `$${SERVICE_NAME}#productId_`;
const NEW_PREFIX = `$${SERVICE_NAME}#productRecords_`;

export type ProductRecordsMigration = { moved: number; alreadyThere: number };

/**
 * Moves feedback, deactivation reasons and daily counts written before they had a partition of their own into it: one
 * transaction per item puts the copy under the new key and deletes the old. A daily count that has grown in the new
 * partition meanwhile (the service ran the new code before this) gets the old count added to it. Safe to run again:
 * what it moved is no longer under the old key. A one-off, so it scans (docs/deploy.md, Upgrading).
 */
export async function migrateProductRecords(client: DynamoDBDocumentClient, tableName: string): Promise<ProductRecordsMigration> {
  const result: ProductRecordsMigration = { moved: 0, alreadyThere: 0 };
  let startKey: ScanCommandOutput['LastEvaluatedKey'];
  do {
    const page = await client.send(
      new ScanCommand({
        TableName: tableName,
        FilterExpression: 'begins_with(pk, :old) AND #entity IN (:feedback, :reason, :daily)',
        ExpressionAttributeNames: { '#entity': '__edb_e__' },
        ExpressionAttributeValues: { ':old': OLD_PREFIX, ':feedback': MOVED_ENTITIES[0], ':reason': MOVED_ENTITIES[1], ':daily': MOVED_ENTITIES[2] },
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) {
      const moved = await moveItem(client, tableName, item);
      result[moved ? 'moved' : 'alreadyThere'] += 1;
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return result;
}

/** True when the item was copied; false when a record of that key was already there (a count: then added to it). */
async function moveItem(client: DynamoDBDocumentClient, tableName: string, item: Record<string, unknown>): Promise<boolean> {
  const oldKey = { pk: item.pk, sk: item.sk };
  const newKey = { pk: `${NEW_PREFIX}${(item.pk as string).slice(OLD_PREFIX.length)}`, sk: item.sk };
  const remove = { Delete: { TableName: tableName, Key: oldKey, ConditionExpression: 'attribute_exists(pk)' } };
  try {
    await client.send(
      new TransactWriteCommand({
        TransactItems: [{ Put: { TableName: tableName, Item: { ...item, ...newKey }, ConditionExpression: 'attribute_not_exists(pk)' } }, remove],
      }),
    );
    return true;
  } catch (error) {
    if ((error as Error).name !== 'TransactionCanceledException') throw error;
  }
  // The new key is taken: a record is never written twice, so only a count can be there, grown since the upgrade.
  const count = item.__edb_e__ === 'productDaily' ? Number(item.count ?? 0) : 0;
  await client.send(
    new TransactWriteCommand({
      TransactItems: [
        { Update: { TableName: tableName, Key: newKey, UpdateExpression: 'ADD #count :count', ExpressionAttributeNames: { '#count': 'count' }, ExpressionAttributeValues: { ':count': count } } },
        remove,
      ],
    }),
  );
  return false;
}
