import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceNotFoundException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  type GlobalSecondaryIndex,
  type GlobalSecondaryIndexDescription,
  type TableDescription,
} from '@aws-sdk/client-dynamodb';
import { GLOBAL_INDEXES, TABLE_KEYS, TABLE_STREAM_VIEW } from '../../shared/platform/data/table-schema.js';

/** The table's indexes as CreateTable and UpdateTable take them. */
const INDEXES: GlobalSecondaryIndex[] = GLOBAL_INDEXES.map((index) => ({
  IndexName: index.indexName,
  KeySchema: [
    { AttributeName: index.partitionKey, KeyType: 'HASH' },
    { AttributeName: index.sortKey, KeyType: 'RANGE' },
  ],
  Projection: { ProjectionType: index.projection.type },
}));

const definitionsOf = (attributes: string[]) => attributes.map((name) => ({ AttributeName: name, AttributeType: 'S' as const }));

/**
 * Creates the service table (same keys and indexes as the CDK stack) unless it exists; a table an earlier version made
 * is brought to this version's shape first (`alignTable`), as a deployment's table is by the release's steps.
 */
export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<void> {
  const existing = await describe(client, tableName);
  if (existing) return alignTable(client, existing);
  const attributes = [TABLE_KEYS.partitionKey, TABLE_KEYS.sortKey, ...GLOBAL_INDEXES.flatMap((i) => [i.partitionKey, i.sortKey])];
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: definitionsOf(attributes),
      KeySchema: [
        { AttributeName: TABLE_KEYS.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE_KEYS.sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: INDEXES,
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

/**
 * The local counterpart of a deployment's table steps (CHANGELOG.md): an index whose keys or projection differ from
 * the schema's is dropped and made again (DynamoDB fills it from the table), a missing one made, one the schema no
 * longer has dropped, and a stream of another view turned off and on again. One index change at a time, as
 * DynamoDB allows. Before 1.0.0, `gsi4` and `gsi5` projected a list of license attributes.
 */
async function alignTable(client: DynamoDBClient, table: TableDescription): Promise<void> {
  const TableName = table.TableName!;
  const current = new Map((table.GlobalSecondaryIndexes ?? []).map((index) => [index.IndexName!, index]));
  for (const wanted of INDEXES) {
    const found = current.get(wanted.IndexName!);
    if (found && sameIndex(found, wanted)) continue;
    if (found) await updateIndexes(client, TableName, { Delete: { IndexName: wanted.IndexName } });
    const keys = wanted.KeySchema!.map((key) => key.AttributeName!);
    await updateIndexes(client, TableName, { Create: wanted }, definitionsOf(keys));
  }
  for (const name of current.keys()) {
    if (!INDEXES.some((index) => index.IndexName === name)) await updateIndexes(client, TableName, { Delete: { IndexName: name } });
  }
  if (table.StreamSpecification?.StreamViewType !== TABLE_STREAM_VIEW) {
    if (table.StreamSpecification?.StreamEnabled) await client.send(new UpdateTableCommand({ TableName, StreamSpecification: { StreamEnabled: false } }));
    await client.send(new UpdateTableCommand({ TableName, StreamSpecification: { StreamEnabled: true, StreamViewType: TABLE_STREAM_VIEW } }));
  }
}

function sameIndex(found: GlobalSecondaryIndexDescription, wanted: GlobalSecondaryIndex): boolean {
  return JSON.stringify([found.KeySchema, found.Projection?.ProjectionType]) === JSON.stringify([wanted.KeySchema, wanted.Projection!.ProjectionType]);
}

type IndexUpdate = NonNullable<ConstructorParameters<typeof UpdateTableCommand>[0]['GlobalSecondaryIndexUpdates']>[number];

/** One index change, then waits until the table and its indexes are active again. */
async function updateIndexes(client: DynamoDBClient, TableName: string, update: IndexUpdate, AttributeDefinitions?: ReturnType<typeof definitionsOf>): Promise<void> {
  await client.send(new UpdateTableCommand({ TableName, GlobalSecondaryIndexUpdates: [update], ...(AttributeDefinitions && { AttributeDefinitions }) }));
  for (;;) {
    const table = (await describe(client, TableName))!;
    if (table.TableStatus === 'ACTIVE' && (table.GlobalSecondaryIndexes ?? []).every((index) => index.IndexStatus === 'ACTIVE')) return;
    await new Promise((resolveWait) => setTimeout(resolveWait, 100));
  }
}

async function describe(client: DynamoDBClient, TableName: string): Promise<TableDescription | undefined> {
  try {
    return (await client.send(new DescribeTableCommand({ TableName }))).Table;
  } catch (error) {
    if (error instanceof ResourceNotFoundException) return undefined;
    throw error;
  }
}
