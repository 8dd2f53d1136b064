import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceNotFoundException,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { GLOBAL_INDEXES, TABLE_KEYS, TABLE_STREAM_VIEW } from '../../shared/platform/data/table-schema.js';

/** Creates the service table (same keys and indexes as the CDK stack) unless it already exists. */
export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<void> {
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    return;
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  const attributes = [TABLE_KEYS.partitionKey, TABLE_KEYS.sortKey, ...GLOBAL_INDEXES.flatMap((i) => [i.partitionKey, i.sortKey])];
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: attributes.map((name) => ({ AttributeName: name, AttributeType: 'S' })),
      KeySchema: [
        { AttributeName: TABLE_KEYS.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE_KEYS.sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: GLOBAL_INDEXES.map((index) => ({
        IndexName: index.indexName,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        Projection:
          index.projection.type === 'ALL' ? { ProjectionType: 'ALL' } : { ProjectionType: 'INCLUDE', NonKeyAttributes: [...index.projection.attributes] },
      })),
      StreamSpecification: { StreamEnabled: true, StreamViewType: TABLE_STREAM_VIEW },
    }),
  );
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: TABLE_KEYS.timeToLive, Enabled: true },
    }),
  );
}
