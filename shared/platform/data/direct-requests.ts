import { GetItemCommand, UpdateItemCommand, type AttributeValue, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { convertToNative, marshall } from '@aws-sdk/util-dynamodb';

/**
 * Direct requests: the hot paths' reads and writes sent through the table's low-level client, as ElectroDB would send
 * them but without ElectroDB: no per-call work (building the request, marshalling it through the document client,
 * formatting the answer), and for the requests of shared/platform/data/direct-requests.generated.ts not even ElectroDB's code
 * loaded (a validate never loads the data model, shared/platform/data/model.ts). ElectroDB stays the one definition of every
 * request: each is built by ElectroDB for marker values (a template), and each call fills its own values in
 * (test/unit/platform/direct-requests.test.ts compares the two, and the generated templates with ElectroDB's of today).
 */

/** Sends a low-level command: the table's own client, or a document client (which sends low-level commands as they are). */
export type CommandSender = Pick<DynamoDBClient, 'send'>;

/** The values a request is prepared for, by name: what each call fills in. */
type Values = Record<string, string | number>;
/** Each value's type, by name, in the order of their markers. */
export type ValueKinds = Readonly<Record<string, 'string' | 'number'>>;
export type ValuesOf<K extends ValueKinds> = { [Name in keyof K]: K[Name] extends 'string' ? string : number };

/** A key's values: strings. */
type KeyKinds = Readonly<Record<string, 'string'>>;

/** A request as ElectroDB builds it for marker values, marshalled for the low-level client: what a call fills in. */
export type RequestTemplate = Readonly<Record<string, unknown>>;

/**
 * A marker stands in for each value while ElectroDB builds the request. A string marker cannot occur in a real value
 * and holds an upper-case letter, so a model that changed a value (a key's casing) would lose it and be refused
 * rather than send something else; a number marker is a number no request holds.
 */
const stringMarker = (slot: number) => `\u0000V${slot}\u0000`;
const numberMarker = (slot: number) => -(1e9 + slot + 0.25);
const STRING_SLOT = /\u0000V(\d+)\u0000/;

const markersOf = (kinds: ValueKinds) =>
  Object.fromEntries(Object.keys(kinds).map((name, slot) => [name, kinds[name] === 'string' ? stringMarker(slot) : numberMarker(slot)]));

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
 * The template of the request `build` makes for marker values: ElectroDB's document-client params, their attribute
 * values marshalled for the low-level client. Run once per request shape (by the generator, or on first use).
 */
export function requestTemplate<const K extends ValueKinds>(kinds: K, build: (values: ValuesOf<K>) => object): RequestTemplate {
  const { ExpressionAttributeValues, Key, Item, ...rest } = build(markersOf(kinds) as ValuesOf<K>) as Record<string, Record<string, unknown> | undefined>;
  return {
    ...rest,
    ...(Key && { Key: marshall(Key) }),
    ...(Item && { Item: marshall(Item, { removeUndefinedValues: true }) }),
    ...(ExpressionAttributeValues && { ExpressionAttributeValues: marshall(ExpressionAttributeValues) }),
  };
}

/**
 * The request of `template` for each call's values, compiled once. Throws when a value does not reach the template as
 * given (so it cannot be filled in).
 */
export function requestFiller<const K extends ValueKinds, P = Record<string, unknown>>(kinds: K, template: RequestTemplate): (values: ValuesOf<K>) => P {
  const names = Object.keys(kinds);
  const markers = markersOf(kinds);
  const numbers = new Map(names.flatMap((name) => (kinds[name] === 'number' ? [[String(markers[name]), name] as const] : [])));
  const used = new Set<string>();
  const fill = compile(template, names, numbers, used) ?? (() => template);
  const lost = names.filter((name) => !used.has(name));
  if (lost.length > 0) throw new Error(`a prepared request does not carry ${lost.join(', ')} as given`);
  return fill as (values: ValuesOf<K>) => P;
}

/** A request prepared once from ElectroDB (`build`, see `requestTemplate`), filled in by each call. */
export function preparedRequest<const K extends ValueKinds, P = Record<string, unknown>>(kinds: K, build: (values: ValuesOf<K>) => object): (values: ValuesOf<K>) => P {
  return requestFiller<K, P>(kinds, requestTemplate(kinds, build));
}

/** What a direct read needs of an entity's model (generated: shared/platform/data/direct-request-shapes.ts). */
export type ReadShape = {
  readonly entity: string;
  readonly version: string;
  /** ElectroDB's fields naming an item's entity and version: an item of another is no item (its ownership check). */
  readonly identifierFields: readonly [string, string];
  /** The key's values (strings), in the order of their markers. */
  readonly key: KeyKinds;
  /** The GetItem, without its table. */
  readonly request: RequestTemplate;
  /** Each model attribute's stored field. */
  readonly fields: Readonly<Record<string, string>>;
};

/** A single-item update sent directly (generated): its values, the UpdateItem without its table, the entity's fields. */
export type UpdateShape = { readonly entity: string; readonly kinds: ValueKinds; readonly request: RequestTemplate; readonly fields: Readonly<Record<string, string>> };

/** Each model attribute read from its field and unmarshalled as the document client does; keys and unknown fields left out. */
function attributesOf(fields: Readonly<Record<string, string>>, stored: Record<string, AttributeValue>): Record<string, unknown> {
  const item: Record<string, unknown> = {};
  for (const attribute in fields) {
    const value = stored[fields[attribute]!];
    if (value !== undefined) item[attribute] = convertToNative(value);
  }
  return item;
}

/**
 * Reads one entity's items by primary key with a low-level `GetItem`: what ElectroDB's `get(key).go()` answers
 * (the hot reads use it: a validate's license, a public call's public key).
 */
export type ItemReader<Item> = {
  get(key: Record<string, string>, options?: { consistent?: boolean }): Promise<Item | undefined>;
};

/** A reader of one entity's items in `table` through `client`, from its shape; the request is compiled here, once. */
export function itemReader<Item>(shape: ReadShape, table: string, client: CommandSender): ItemReader<Item> {
  const request = requestFiller<KeyKinds, { Key: Record<string, AttributeValue> }>(shape.key, shape.request);
  const [entityField, versionField] = shape.identifierFields;
  return {
    async get(key, options = {}) {
      const { Item } = await client.send(new GetItemCommand({ TableName: table, ...request(key), ConsistentRead: options.consistent }));
      if (!Item || Item[entityField]?.S !== shape.entity || Item[versionField]?.S !== shape.version) return undefined;
      return attributesOf(shape.fields, Item) as Item;
    },
  };
}

/**
 * A single-item update of `table` from its shape, sent directly: it answers the attributes the update returned (as
 * the shape asks, e.g. the values it replaced), or undefined. Failures are the SDK's own errors, as `writeItem` reads them.
 */
export function directUpdate<const K extends ValueKinds, Item>(shape: UpdateShape & { kinds: K }, table: string, client: CommandSender) {
  const request = requestFiller<K, ConstructorParameters<typeof UpdateItemCommand>[0]>(shape.kinds, shape.request);
  return async (values: ValuesOf<K>): Promise<Partial<Item> | undefined> => {
    const { Attributes } = await client.send(new UpdateItemCommand({ ...request(values), TableName: table }));
    return Attributes && (attributesOf(shape.fields, Attributes) as Partial<Item>);
  };
}

/**
 * An UpdateItem prepared once from ElectroDB's `update(…)…params()` (see `preparedRequest`) and sent directly: for the
 * hot single-item writes built on first use (rate-limit buckets). Failures are the SDK's own errors, as `writeItem` reads them.
 */
export function preparedUpdate<const K extends ValueKinds>(client: CommandSender, kinds: K, build: (values: ValuesOf<K>) => object) {
  const request = preparedRequest<K, ConstructorParameters<typeof UpdateItemCommand>[0]>(kinds, build);
  return (values: ValuesOf<K>) => client.send(new UpdateItemCommand(request(values)));
}
