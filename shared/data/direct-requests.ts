import { GetItemCommand, UpdateItemCommand, type AttributeValue, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { convertToNative, marshall } from '@aws-sdk/util-dynamodb';
import { EntityIdentifierFields, type Entity, type EntityIdentifiers, type EntityItem } from 'electrodb';

/**
 * Direct requests: the hot paths' reads and writes sent through the table's low-level client, as ElectroDB would send
 * them but without ElectroDB's per-call work (building the request, marshalling it through the document client,
 * formatting the answer, a stack trace for its wrapper error). ElectroDB stays the one definition of every request:
 * each is built once by ElectroDB for marker values, and each call fills its own values in
 * (test/unit/direct-requests.test.ts compares the two). Everything else stays on ElectroDB.
 */

/** Any entity of the model (ElectroDB's types are generic over four parameters). */
type AnyEntity = Entity<any, any, any, any>;

/** Sends a low-level command: the table's own client, or a document client (which sends low-level commands as they are). */
export type CommandSender = Pick<DynamoDBClient, 'send'>;

/** The values a request is prepared for, by name: what each call fills in. */
type Values = Record<string, string | number>;
/** Each value's type, by name. */
export type ValueKinds = Record<string, 'string' | 'number'>;
export type ValuesOf<K extends ValueKinds> = { [Name in keyof K]: K[Name] extends 'string' ? string : number };

/**
 * A marker stands in for each value while ElectroDB builds the request. A string marker cannot occur in a real value
 * and holds an upper-case letter, so a model that changed a value (a key's casing) would lose it and be refused
 * rather than send something else; a number marker is a number no request holds.
 */
const stringMarker = (slot: number) => `\u0000V${slot}\u0000`;
const numberMarker = (slot: number) => -(1e9 + slot + 0.25);
const STRING_SLOT = /\u0000V(\d+)\u0000/;

type Fill<T> = (values: Values) => T;

/**
 * The marshalled request as a function of the values: every string that holds markers becomes a concatenation of its
 * literal parts and the values, every other part is shared as it is.
 */
function compile(node: unknown, names: string[], numbers: Map<string, string>, used: Set<string>): Fill<unknown> | undefined {
  if (typeof node === 'string') {
    const number = numbers.get(node);
    if (number !== undefined) {
      used.add(number);
      return (values) => String(values[number]);
    }
    const parts = node.split(STRING_SLOT);
    if (parts.length === 1) return undefined;
    const literals = parts.filter((_, i) => i % 2 === 0);
    const slots = parts.filter((_, i) => i % 2 === 1).map((slot) => names[Number(slot)]!);
    for (const slot of slots) used.add(slot);
    return (values) => {
      let text = literals[0]!;
      for (let i = 0; i < slots.length; i++) text += String(values[slots[i]!]) + literals[i + 1]!;
      return text;
    };
  }
  if (node === null || typeof node !== 'object') return undefined;
  const entries = Object.entries(node).map(([key, value]) => [key, value, compile(value, names, numbers, used)] as const);
  if (entries.every(([, , fill]) => fill === undefined)) return undefined;
  const isArray = Array.isArray(node);
  return (values) => {
    const filled: Record<string, unknown> | unknown[] = isArray ? [] : {};
    for (const [key, value, fill] of entries) (filled as Record<string, unknown>)[key] = fill ? fill(values) : value;
    return filled;
  };
}

/**
 * A request prepared once: `build` makes ElectroDB's params for the values given (markers, here), which are marshalled
 * for the low-level client; the function returned fills in each call's values. `kinds` names each value's type.
 * Throws when a value does not reach the request as given (so it cannot be filled in).
 */
export function preparedRequest<const K extends ValueKinds, P = Record<string, unknown>>(kinds: K, build: (values: ValuesOf<K>) => object): (values: ValuesOf<K>) => P {
  const names = Object.keys(kinds);
  const markers = Object.fromEntries(names.map((name, slot) => [name, kinds[name] === 'string' ? stringMarker(slot) : numberMarker(slot)])) as ValuesOf<K>;
  const numbers = new Map(names.flatMap((name) => (kinds[name] === 'number' ? [[String(markers[name]), name] as const] : [])));
  const { ExpressionAttributeValues, Key, Item, ...rest } = build(markers) as Record<string, Record<string, unknown> | undefined>;
  // ElectroDB builds document-client params; attribute values are what the low-level client takes marshalled.
  const marshalled = {
    ...rest,
    ...(Key && { Key: marshall(Key) }),
    ...(Item && { Item: marshall(Item, { removeUndefinedValues: true }) }),
    ...(ExpressionAttributeValues && { ExpressionAttributeValues: marshall(ExpressionAttributeValues) }),
  };
  const used = new Set<string>();
  const fill = compile(marshalled, names, numbers, used) ?? (() => marshalled);
  const lost = names.filter((name) => !used.has(name));
  if (lost.length > 0) throw new Error(`a prepared request does not carry ${lost.join(', ')} as given`);
  return fill as (values: ValuesOf<K>) => P;
}

/**
 * Reads one entity's items by primary key with a low-level `GetItem`: what ElectroDB's `get(key).go()` answers
 * (the hot reads use it: a validate's license, a public call's public key).
 */
export type ItemReader<E extends AnyEntity> = {
  get(key: EntityIdentifiers<E>, options?: { consistent?: boolean }): Promise<EntityItem<E> | undefined>;
};

/** The table index's composite attributes, partition key first: what names an item. */
export function keyAttributes(entity: AnyEntity): string[] {
  const indexes = entity.schema.indexes as Record<string, { index?: string; pk: { composite: readonly string[] }; sk?: { composite: readonly string[] } }>;
  const table = Object.values(indexes).find((index) => index.index === undefined)!;
  return [...table.pk.composite, ...(table.sk?.composite ?? [])];
}

/** Attribute options that make ElectroDB's answer differ from the stored item: a reader refuses models that use them. */
const UNSUPPORTED_OPTIONS = ['get', 'hidden', 'watch'] as const;

/**
 * The stored item as ElectroDB answers it: each model attribute read from its field (`field`, else its name) and
 * unmarshalled as the document client does; keys, identifiers and unknown fields left out. An item of another
 * entity or version (ElectroDB's ownership check) is no item.
 */
function itemDecoder<E extends AnyEntity>(entity: E): (stored: Record<string, AttributeValue>) => EntityItem<E> | undefined {
  const { entity: name, version } = entity.schema.model;
  const attributes = Object.entries(entity.schema.attributes as Record<string, Record<string, unknown>>).map(([attribute, definition]) => {
    const option = UNSUPPORTED_OPTIONS.find((key) => definition[key] !== undefined);
    if (option) throw new Error(`${name}.${attribute}: the \`${option}\` option is not supported by direct reads`);
    return { attribute, field: (definition.field as string | undefined) ?? attribute };
  });
  const [entityField, versionField] = EntityIdentifierFields as [string, string];
  return (stored) => {
    if (stored[entityField]?.S !== name || stored[versionField]?.S !== version) return undefined;
    const item: Record<string, unknown> = {};
    for (const { attribute, field } of attributes) {
      const value = stored[field];
      if (value !== undefined) item[attribute] = convertToNative(value);
    }
    return item as EntityItem<E>;
  };
}

/** A reader of `entity`'s items through `client`; the request and the decoder are prepared here, once. */
export function itemReader<E extends AnyEntity>(entity: E, client: CommandSender): ItemReader<E> {
  const padded = keyAttributes(entity).filter((name) => (entity.schema.attributes as Record<string, { padding?: unknown }>)[name]?.padding);
  // A padded key value's length depends on the value, so a prepared key cannot hold it (importError's row).
  if (padded.length > 0) throw new Error(`${entity.schema.model.entity}.${padded.join(', ')}: padded key attributes are not supported by direct reads`);
  const kinds: Record<string, 'string'> = Object.fromEntries(keyAttributes(entity).map((name) => [name, 'string']));
  const request = preparedRequest<Record<string, 'string'>, { TableName: string; Key: Record<string, AttributeValue> }>(kinds, (key) => entity.get(key as never).params());
  const decode = itemDecoder(entity);
  return {
    async get(key, options = {}) {
      const { Item } = await client.send(new GetItemCommand({ ...request(key as Record<string, string>), ConsistentRead: options.consistent }));
      return Item ? decode(Item) : undefined;
    },
  };
}

/**
 * An UpdateItem prepared once from ElectroDB's `update(…)…params()` (see `preparedRequest`) and sent directly: for the
 * hot single-item writes (rate-limit buckets). Failures are the SDK's own errors, as `writeItem` reads them.
 */
export function preparedUpdate<const K extends ValueKinds>(client: CommandSender, kinds: K, build: (values: ValuesOf<K>) => object) {
  const request = preparedRequest<K, ConstructorParameters<typeof UpdateItemCommand>[0]>(kinds, build);
  return (values: ValuesOf<K>) => client.send(new UpdateItemCommand(request(values)));
}
