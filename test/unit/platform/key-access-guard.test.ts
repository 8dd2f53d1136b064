import { DynamoDBClient, GetItemCommand, QueryCommand as RawQueryCommand, ScanCommand as RawScanCommand } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  TransactGetCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { createClients } from '../../../shared/platform/clients.js';
import { loadConfig } from '../../../shared/platform/config.js';
import { enforceKeyAccess } from '../../../shared/platform/data/key-access-guard.js';
import { KEY_ACCESS, type KeyAccessRole, type TableKeyAccess } from '../../../shared/platform/data/key-access.js';
import { leadingKeysOf } from '../../../shared/platform/data/leading-keys.js';
import { createDataService } from '../../../shared/platform/data/service.js';
import * as dataModel from '../../../shared/platform/data/model.js';

const TABLE = 'licensing';
const ROLES = Object.keys(KEY_ACCESS) as KeyAccessRole[];
/** Items of the management function (users, sessions, API keys, e-mail lookups); the portal checks API keys too. */
const MANAGEMENT_ITEMS = ['userId', 'tokenHash', 'keyHash', 'email'];
const notOf = (role: KeyAccessRole) => MANAGEMENT_ITEMS.filter((attribute) => !(KEY_ACCESS[role].read as readonly string[]).includes(attribute));

/**
 * A table client whose requests stop right after the build step, where the guard sits, and count as
 * answered: what reaches it passed the guard, and nothing goes over the network.
 */
function tableClient(install: (client: DynamoDBClient) => void) {
  const raw = new DynamoDBClient({ region: 'us-east-1', credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
  install(raw);
  const answered: string[] = [];
  raw.middlewareStack.add(
    (_next, context) => async () => {
      answered.push(context.commandName!);
      return { output: { $metadata: {} }, response: {} };
    },
    { step: 'build', priority: 'low', name: 'answerWithoutNetwork' },
  );
  return { raw, doc: DynamoDBDocumentClient.from(raw), answered };
}

const guarded = (role: KeyAccessRole) => tableClient((client) => enforceKeyAccess(client, role));
/** A key of the template's shape (`tenantId#shard`: `$licensing#tenantId_abc123#shard_abc123`). */
const key = (template: string) => ({ pk: `$licensing${template.split('#').map((attribute) => `#${attribute}_abc123`).join('')}`, sk: '$entity_1' });

async function refusal(send: Promise<unknown>) {
  const error = (await send.then(() => undefined, (e: unknown) => e)) as { name?: string; $metadata?: { httpStatusCode?: number } } | undefined;
  return error && { name: error.name, status: error.$metadata?.httpStatusCode };
}
const DENIED = { name: 'AccessDeniedException', status: 400 };

describe.each(ROLES)('key access guard, role %s', (role) => {
  // A key the role may read and change.
  const allowed = KEY_ACCESS[role].write[0];

  it('lets a request on its own partition keys through, from the document client and the plain client alike', async () => {
    const { raw, doc, answered } = guarded(role);
    await doc.send(new GetCommand({ TableName: TABLE, Key: key(allowed) }));
    await raw.send(new GetItemCommand({ TableName: TABLE, Key: { pk: { S: key(allowed).pk }, sk: { S: '$entity_1' } } }));
    await doc.send(new PutCommand({ TableName: TABLE, Item: { ...key(allowed), name: 'x' } }));
    await doc.send(new UpdateCommand({ TableName: TABLE, Key: key(allowed), UpdateExpression: 'SET #n = :n', ExpressionAttributeNames: { '#n': 'name' }, ExpressionAttributeValues: { ':n': 'y' } }));
    await doc.send(new DeleteCommand({ TableName: TABLE, Key: key(allowed) }));
    expect(answered).toEqual(['GetItemCommand', 'GetItemCommand', 'PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand']);
  });

  it.each(notOf(role))('refuses items keyed by %s as IAM would: AccessDeniedException, 400', async (attribute) => {
    const { raw, doc, answered } = guarded(role);
    expect(await refusal(doc.send(new GetCommand({ TableName: TABLE, Key: key(attribute) })))).toEqual(DENIED);
    expect(await refusal(raw.send(new GetItemCommand({ TableName: TABLE, Key: { pk: { S: key(attribute).pk }, sk: { S: 'x' } } })))).toEqual(DENIED);
    expect(await refusal(doc.send(new PutCommand({ TableName: TABLE, Item: key(attribute) })))).toEqual(DENIED);
    expect(await refusal(doc.send(new DeleteCommand({ TableName: TABLE, Key: key(attribute) })))).toEqual(DENIED);
    const byIndex = new QueryCommand({
      TableName: TABLE,
      IndexName: 'gsi1',
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': 'gsi1pk' },
      ExpressionAttributeValues: { ':pk': key(attribute).pk },
    });
    expect(await refusal(doc.send(byIndex))).toEqual(DENIED);
    expect(answered).toEqual([]);
  });

  it('refuses a Scan, which names no partition key', async () => {
    const { raw, doc, answered } = guarded(role);
    expect(await refusal(doc.send(new ScanCommand({ TableName: TABLE })))).toEqual(DENIED);
    expect(await refusal(raw.send(new RawScanCommand({ TableName: TABLE })))).toEqual(DENIED);
    expect(answered).toEqual([]);
  });

  it('refuses a transaction or batch with one forbidden item among allowed ones', async () => {
    const { doc, answered } = guarded(role);
    const transaction = new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName: TABLE, Item: key(allowed) } },
        { ConditionCheck: { TableName: TABLE, Key: key('userId'), ConditionExpression: 'attribute_exists(pk)' } },
      ],
    });
    expect(await refusal(doc.send(transaction))).toEqual(DENIED);
    const read = new TransactGetCommand({ TransactItems: [{ Get: { TableName: TABLE, Key: key(allowed) } }, { Get: { TableName: TABLE, Key: key('tokenHash') } }] });
    expect(await refusal(doc.send(read))).toEqual(DENIED);
    expect(await refusal(doc.send(new BatchGetCommand({ RequestItems: { [TABLE]: { Keys: [key(allowed), key('userId')] } } })))).toEqual(DENIED);
    const batchWrite = new BatchWriteCommand({ RequestItems: { [TABLE]: [{ PutRequest: { Item: key(allowed) } }, { DeleteRequest: { Key: key('email') } }] } });
    expect(await refusal(doc.send(batchWrite))).toEqual(DENIED);
    expect(answered).toEqual([]);

    await doc.send(new TransactWriteCommand({ TransactItems: [{ Put: { TableName: TABLE, Item: key(allowed) } }, { Delete: { TableName: TABLE, Key: key(allowed) } }] }));
    await doc.send(new BatchGetCommand({ RequestItems: { [TABLE]: { Keys: [key(allowed)] } } }));
    expect(answered).toEqual(['TransactWriteItemsCommand', 'BatchGetItemCommand']);
  });
});

describe('key access guard: reading apart from changing', () => {
  const DENIED_ITEMS: [KeyAccessRole, string][] = [
    // Neither surface that anyone on the internet calls may change a vendor's Stripe account or the events it has seen.
    ['edge', 'tenantId'],
    ['edge', 'tenantId#stripeEventId'],
    ['public', 'tenantId'],
    ['public', 'tenantId#stripeEventId'],
    // Nor either of them a product (feedback and its counts have a partition of their own), nor a public-key or slug mapping.
    ['edge', 'productId'],
    ['public', 'productId'],
    ['edge', 'slug'],
    ['public', 'publicKey'],
    ['stripeWebhook', 'tenantId'],
    ['stripeWebhook', 'productId'],
    ['portal', 'tenantId'],
    ['usageWriter', 'licenseKey'],
    ['usageWriter', 'productId'],
  ];

  it.each(DENIED_ITEMS)('%s reads %s items but may not change them', async (role, template) => {
    const { doc, answered } = guarded(role);
    await doc.send(new GetCommand({ TableName: TABLE, Key: key(template) }));
    await doc.send(new TransactWriteCommand({ TransactItems: [{ ConditionCheck: { TableName: TABLE, Key: key(template), ConditionExpression: 'attribute_exists(pk)' } }] }));
    expect(answered).toEqual(['GetItemCommand', 'TransactWriteItemsCommand']);
    expect(await refusal(doc.send(new PutCommand({ TableName: TABLE, Item: key(template) })))).toEqual(DENIED);
    expect(await refusal(doc.send(new UpdateCommand({ TableName: TABLE, Key: key(template), UpdateExpression: 'SET #n = :n', ExpressionAttributeNames: { '#n': 'n' }, ExpressionAttributeValues: { ':n': 1 } })))).toEqual(DENIED);
    expect(await refusal(doc.send(new DeleteCommand({ TableName: TABLE, Key: key(template) })))).toEqual(DENIED);
    const write = new TransactWriteCommand({ TransactItems: [{ Put: { TableName: TABLE, Item: key(KEY_ACCESS[role].write[0]) } }, { Delete: { TableName: TABLE, Key: key(template) } }] });
    expect(await refusal(doc.send(write))).toEqual(DENIED);
    expect(answered).toHaveLength(2);
  });

  it("lets the edge and public functions change their tenant's counter shards, which share the tenant's leading attribute", async () => {
    for (const role of ['edge', 'public'] as const) {
      const { doc, answered } = guarded(role);
      await doc.send(new UpdateCommand({ TableName: TABLE, Key: key('tenantId#shard'), UpdateExpression: 'ADD #n :n', ExpressionAttributeNames: { '#n': 'n' }, ExpressionAttributeValues: { ':n': 1 } }));
      expect(answered).toEqual(['UpdateItemCommand']);
    }
  });

  it('refuses, through ElectroDB, the edge connecting a payment provider and the public function marking a Stripe event seen', async () => {
    const denied = async (run: () => Promise<unknown>) => ((await run().then(() => undefined, (e: Error) => e))?.cause as Error | undefined)?.name;
    const edge = createDataService(guarded('edge').doc, TABLE, undefined, dataModel);
    expect(await denied(() => edge.entities.paymentProvider.put({ tenantId: 'usr_1', provider: 'stripe', sealedSecretKey: 'x', sealedWebhookSecret: 'y', connectedAt: 'now' } as never).go())).toBe('AccessDeniedException');
    expect(await denied(() => edge.entities.product.patch({ productId: 'prd_1' }).set({ name: 'Mine' }).go())).toBe('AccessDeniedException');
    const publicData = createDataService(guarded('public').doc, TABLE, undefined, dataModel);
    expect(await denied(() => publicData.entities.stripeEvent.patch({ tenantId: 'usr_1', stripeEventId: 'evt_1' }).set({ state: 'processed' }).go())).toBe('AccessDeniedException');
    expect(await denied(() => publicData.entities.product.patch({ productId: 'prd_1' }).set({ name: 'Mine' }).go())).toBe('AccessDeniedException');
  });

  it("lets the public function write a product's feedback and its daily count, in the product's records partition", async () => {
    const { doc, answered } = guarded('public');
    const data = createDataService(doc, TABLE, undefined, dataModel);
    await data.entities.feedback.put({ productId: 'prd_1', feedbackId: 'fb_1', type: 'bug', message: 'Broken', createdAt: 'now', ttl: 1 }).go();
    await data.entities.productDaily.update({ productId: 'prd_1', day: '2026-11-25', metric: 'feedback', name: 'bug' }).add({ count: 1 }).go();
    expect(answered).toEqual(['PutItemCommand', 'UpdateItemCommand']);
  });
});

describe('key access guard with ElectroDB', () => {
  it("refuses the edge's reach for a session and lets its license queries through", async () => {
    const { doc, answered } = guarded('edge');
    const data = createDataService(doc, TABLE, undefined, dataModel);
    const error = await data.entities.session.get({ tokenHash: 'f'.repeat(64) }).go().then(() => undefined, (e: Error) => e);
    expect((error?.cause as Error | undefined)?.name).toBe('AccessDeniedException');
    await data.entities.license.query.byProductStatus({ tenantId: 'usr_1', productId: 'prd_1', status: 'active' }).go();
    expect(answered).toEqual(['QueryCommand']);
  });
});

describe('leadingKeysOf', () => {
  const query = (expression: string, values: Record<string, string>, index?: string) => ({
    TableName: TABLE,
    ...(index ? { IndexName: index } : {}),
    KeyConditionExpression: expression,
    ExpressionAttributeNames: { '#pk': index ? `${index}pk` : 'pk', '#sk': 'sk' },
    ExpressionAttributeValues: Object.fromEntries(Object.entries(values).map(([name, value]) => [name, { S: value }])),
  });

  it("reads a Query's partition key from its key condition, either way round, on the table or on an index", () => {
    const read = (key: string) => [{ key, use: 'read' }];
    expect(leadingKeysOf('QueryCommand', query('#pk = :pk AND #sk <= :sk', { ':pk': 'a', ':sk': 'b' }))).toEqual(read('a'));
    expect(leadingKeysOf('QueryCommand', query(':sk >= #sk and :pk = #pk', { ':pk': 'a', ':sk': 'b' }))).toEqual(read('a'));
    expect(leadingKeysOf('QueryCommand', query('#pk=:v1 AND #sk BETWEEN :v2 AND :v3', { ':v1': 'a', ':v2': 'b', ':v3': 'c' }, 'gsi3'))).toEqual(read('a'));
    expect(leadingKeysOf('QueryCommand', { ...query('pk = :pk', { ':pk': 'a' }), ExpressionAttributeNames: undefined })).toEqual(read('a'));
  });

  it('reads no key (so nothing matches) when the condition is on another attribute or the index is unknown', () => {
    const none = [{ key: '', use: 'read' }];
    expect(leadingKeysOf('QueryCommand', query('#sk = :pk', { ':pk': 'a' }))).toEqual(none);
    expect(leadingKeysOf('QueryCommand', query('#pk = :pk', { ':pk': 'a' }, 'gsi9'))).toEqual(none);
    expect(leadingKeysOf('QueryCommand', { TableName: TABLE })).toEqual(none);
  });

  it("tells a transaction's condition checks (reads) from its puts, updates and deletes", () => {
    const item = (pk: string) => ({ pk: { S: pk }, sk: { S: 'x' } });
    const transaction = { TransactItems: [{ ConditionCheck: { Key: item('a') } }, { Put: { Item: item('b') } }, { Update: { Key: item('c') } }, { Delete: { Key: item('d') } }] };
    expect(leadingKeysOf('TransactWriteItemsCommand', transaction)).toEqual([
      { key: 'a', use: 'read' },
      { key: 'b', use: 'write' },
      { key: 'c', use: 'write' },
      { key: 'd', use: 'write' },
    ]);
  });

  it('grants no operation outside the item actions', () => {
    for (const command of ['ScanCommand', 'ExecuteStatementCommand', 'DescribeTableCommand', 'DeleteTableCommand', undefined]) {
      expect(leadingKeysOf(command, { TableName: TABLE })).toBeUndefined();
    }
  });
});

describe('createClients', () => {
  const config = (runtime: 'local' | 'aws') => loadConfig({ RUNTIME: runtime, TABLE_NAME: TABLE, DYNAMODB_ENDPOINT: 'http://127.0.0.1:9' });
  const outcome = async (runtime: 'local' | 'aws', keyAccess: TableKeyAccess) => {
    const { documents } = createClients(config(runtime), keyAccess);
    documents.middlewareStack.add(() => async () => ({ output: { $metadata: {} }, response: {} }), { step: 'build', priority: 'low', name: 'answerWithoutNetwork' });
    return refusal(documents.send(new RawQueryCommand({ TableName: TABLE, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': { S: key('userId').pk } } })));
  };

  it('guards the table client on the local stack for a restricted role only; IAM does it in AWS', async () => {
    expect(await outcome('local', 'edge')).toEqual(DENIED);
    expect(await outcome('local', 'all')).toBeUndefined();
    expect(await outcome('aws', 'edge')).toBeUndefined();
  });
});
