import type {
  AttributeValue,
  BatchGetItemCommandInput,
  BatchWriteItemCommandInput,
  DeleteItemCommandInput,
  GetItemCommandInput,
  PutItemCommandInput,
  QueryCommandInput,
  TransactGetItemsCommandInput,
  TransactWriteItemsCommandInput,
  UpdateItemCommandInput,
} from '@aws-sdk/client-dynamodb';
import type { KeyUse } from './key-access.js';
import { GLOBAL_INDEXES, TABLE_KEYS } from './table-schema.js';

type Key = Record<string, AttributeValue> | undefined;

/** A partition key a request names, and whether the request reads or changes that item. */
export type LeadingKey = { key: string; use: KeyUse };

const reading = (key: Key): LeadingKey => ({ key: partitionKey(key), use: 'read' });
const writing = (key: Key): LeadingKey => ({ key: partitionKey(key), use: 'write' });

/**
 * The partition-key values a DynamoDB request names, as IAM's `dynamodb:LeadingKeys` sees them, read from
 * the client's marshalled input (`{S: …}`), each with the kind of action IAM checks it against (a transaction's
 * condition check is `ConditionCheckItem`, a read). A key that cannot be read counts as `''`, which no role's
 * pattern matches. `undefined`: an operation no role is granted (Scan, PartiQL, table management).
 */
export function leadingKeysOf(commandName: string | undefined, input: object): LeadingKey[] | undefined {
  switch (commandName) {
    case 'GetItemCommand':
      return [reading((input as GetItemCommandInput).Key)];
    case 'UpdateItemCommand':
    case 'DeleteItemCommand':
      return [writing((input as UpdateItemCommandInput | DeleteItemCommandInput).Key)];
    case 'PutItemCommand':
      return [writing((input as PutItemCommandInput).Item)];
    case 'QueryCommand':
      return [{ key: queriedPartitionKey(input as QueryCommandInput), use: 'read' }];
    case 'BatchGetItemCommand':
      return Object.values((input as BatchGetItemCommandInput).RequestItems ?? {}).flatMap((request) => (request.Keys ?? []).map(reading));
    case 'BatchWriteItemCommand':
      return Object.values((input as BatchWriteItemCommandInput).RequestItems ?? {})
        .flat()
        .map((write) => writing(write.PutRequest?.Item ?? write.DeleteRequest?.Key));
    case 'TransactGetItemsCommand':
      return ((input as TransactGetItemsCommandInput).TransactItems ?? []).map((item) => reading(item.Get?.Key));
    case 'TransactWriteItemsCommand':
      return ((input as TransactWriteItemsCommandInput).TransactItems ?? []).map((item) =>
        item.ConditionCheck ? reading(item.ConditionCheck.Key) : writing(item.Put?.Item ?? item.Update?.Key ?? item.Delete?.Key),
      );
    default:
      return undefined;
  }
}

function partitionKey(key: Key): string {
  return key?.[TABLE_KEYS.partitionKey]?.S ?? '';
}

/**
 * The value a Query's key condition gives the partition key of the table, or of the index it reads
 * (an index query is keyed by the index's partition key, `gsiNpk`). DynamoDB requires that key as an
 * equality, `name = :value` (either way round), beside an optional sort-key condition.
 */
function queriedPartitionKey(input: QueryCommandInput): string {
  const keyName = input.IndexName
    ? GLOBAL_INDEXES.find((index) => index.indexName === input.IndexName)?.partitionKey
    : TABLE_KEYS.partitionKey;
  if (!keyName || !input.KeyConditionExpression) return '';
  const nameOf = (token: string) => input.ExpressionAttributeNames?.[token] ?? token;
  // `<=` and `>=` do not match: the character before `=` must belong to a name or be a space.
  for (const [, left, right] of input.KeyConditionExpression.matchAll(/([#:]?\w+)\s*=\s*([#:]?\w+)/g)) {
    for (const [name, value] of [[left!, right!], [right!, left!]]) {
      if (nameOf(name) === keyName && value.startsWith(':')) return input.ExpressionAttributeValues?.[value]?.S ?? '';
    }
  }
  return '';
}
