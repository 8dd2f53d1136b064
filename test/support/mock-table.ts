import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { createDataService, type Entities } from '../../shared/platform/data/service.js';
import * as dataModel from '../../shared/platform/data/model.js';

type Reason = { Code: string; Item?: Record<string, unknown> } | string;
type TransactInput = { TransactItems: unknown[] };
/** The part of aws-sdk-client-mock's chain these helpers use: one-off answers, then a standing one. */
type Behavior = { callsFakeOnce(fn: (input: never) => unknown): Behavior; callsFake(fn: () => unknown): unknown; resolves(output: object): unknown };

/** DynamoDB's cancellation: one reason per item (missing ones `None`), old items in the wire format. */
function cancellation(input: TransactInput, codes: Reason[]) {
  const reasons = input.TransactItems.map((_, i) => {
    const reason = codes[i] ?? 'None';
    return typeof reason === 'string' ? { Code: reason } : { ...reason, ...(reason.Item && { Item: marshall(reason.Item) }) };
  });
  return Object.assign(new Error('Transaction cancelled'), { name: 'TransactionCanceledException', CancellationReasons: reasons });
}

/**
 * The table as the SDK would answer it, for the failures DynamoDB Local never produces (a transaction
 * cancelled by a conflict or by throttling). Reads answer from seeded items; writes succeed unless a
 * failure is scripted for them; every write sent is recorded, so a test can show what was (not) written.
 */
export function mockTable() {
  const ddb = mockClient(DynamoDBDocumentClient);
  const data = createDataService(
    DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } })),
    'table',
    undefined,
    dataModel,
  );
  const stored = new Map<string, Record<string, unknown>>();
  const keyOf = (key: Record<string, unknown>) => `${key.pk}|${key.sk}`;

  ddb.on(GetCommand).callsFake(({ Key }) => ({ Item: stored.get(keyOf(Key)) }));
  // Direct reads (shared/platform/data/direct-requests.ts) send low-level GetItem through the same client.
  ddb.on(GetItemCommand as never).callsFake(({ Key }: { Key: Parameters<typeof unmarshall>[0] }) => {
    const item = stored.get(keyOf(unmarshall(Key)));
    return { Item: item && marshall(item, { removeUndefinedValues: true }) };
  });
  ddb.on(BatchGetCommand).callsFake(({ RequestItems }) => ({
    Responses: { table: RequestItems.table.Keys.flatMap((key: Record<string, unknown>) => stored.get(keyOf(key)) ?? []) },
    UnprocessedKeys: {},
  }));
  ddb.on(QueryCommand).callsFake((input) => {
    // ElectroDB names the partition key `#pk` and its value `:pk`, the sort key `#sk1` and its bound `:sk1`.
    const pkField = input.ExpressionAttributeNames['#pk'];
    const skField = input.ExpressionAttributeNames['#sk1'];
    const bound = String(input.ExpressionAttributeValues[':sk1']);
    const upTo = / <= :sk1/.test(input.KeyConditionExpression);
    const sortMatches = (value: string) => !skField || (upTo ? value <= bound : value.startsWith(bound));
    const Items = [...stored.values()].filter((item) => item[pkField] === input.ExpressionAttributeValues[':pk'] && sortMatches(String(item[skField])));
    return { Items };
  });
  /** What a committed transaction leaves behind, for paths that read again after committing (set by `afterCommit`). */
  let applyCommit = () => {};
  for (const command of [PutCommand, UpdateCommand, DeleteCommand]) ddb.on(command as never).resolves({});
  const commit = async () => {
    applyCommit();
    return {};
  };
  ddb.on(TransactWriteCommand).callsFake(commit);
  ddb.on(BatchWriteCommand).resolves({ UnprocessedItems: {} });

  return {
    data,
    ddb,
    /** Runs after every committed transaction: the test's account of what it wrote. */
    afterCommit(apply: () => void) {
      applyCommit = apply;
    },
    /** Removes a stored item. */
    remove<E extends keyof Entities>(entity: E, item: Record<string, unknown>) {
      const { Item } = (data.entities[entity] as { put: (i: unknown) => { params: () => { Item: Record<string, unknown> } } }).put(item).params();
      stored.delete(keyOf(Item));
    },
    /** Stores an item as the entity would write it. */
    seed<E extends keyof Entities>(entity: E, item: Record<string, unknown>) {
      const { Item } = (data.entities[entity] as { put: (i: unknown) => { params: () => { Item: Record<string, unknown> } } }).put(item).params();
      stored.set(keyOf(Item), Item);
      return Item;
    },
    /** The next transactions are cancelled with these reasons (one list per transaction, one code per item; missing codes are `None`). */
    cancelTransactions(...reasons: Reason[][]) {
      let behavior = ddb.on(TransactWriteCommand) as unknown as Behavior;
      for (const codes of reasons) behavior = behavior.callsFakeOnce((input: TransactInput) => Promise.reject(cancellation(input, codes)));
      behavior.callsFake(commit);
    },
    /** The next transaction is cancelled with these reasons after `meanwhile` changed the table (a concurrent writer). */
    cancelTransactionAfter(codes: Reason[], meanwhile: () => void) {
      (ddb.on(TransactWriteCommand) as unknown as Behavior)
        .callsFakeOnce((input: TransactInput) => {
          meanwhile();
          return Promise.reject(cancellation(input, codes));
        })
        .callsFake(commit);
    },
    /** Every transaction is cancelled with these reasons, however often it is tried. */
    alwaysCancelTransactions(codes: Reason[]) {
      ddb.on(TransactWriteCommand).callsFake((input: TransactInput) => Promise.reject(cancellation(input, codes)));
    },
    /** Single-item writes of this kind fail with an error of this name (`times` times, then succeed; or always). */
    failItemWrites(command: typeof PutCommand | typeof UpdateCommand | typeof DeleteCommand, name: string, times = Infinity) {
      const error = () => Promise.reject(Object.assign(new Error(name), { name, $fault: 'client' }));
      if (times === Infinity) {
        ddb.on(command as never).callsFake(error);
        return;
      }
      let behavior = ddb.on(command as never) as unknown as Behavior;
      for (let n = 0; n < times; n++) behavior = behavior.callsFakeOnce(error);
      behavior.resolves({});
    },
    /** The names of the write commands sent, in order. */
    writes(): string[] {
      const writeNames = new Set(['PutCommand', 'UpdateCommand', 'DeleteCommand', 'TransactWriteCommand', 'BatchWriteCommand']);
      return ddb
        .calls()
        .map((call) => (call.args[0] as object).constructor.name)
        .filter((name) => writeNames.has(name));
    },
    transactions: () => ddb.commandCalls(TransactWriteCommand).map((call) => call.args[0].input),
  };
}

export type MockTable = ReturnType<typeof mockTable>;
