import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { EntityItem as ElectroEntityItem, Service } from 'electrodb';
import { directUpdate, itemReader, preparedUpdate, type CommandSender, type ItemReader, type ValueKinds, type ValuesOf } from './direct-requests.js';
import { DIRECT_READ_SHAPES, DIRECT_UPDATE_SHAPES } from './direct-requests.generated.js';
import type { EntityMap } from './model.js';

/** The entities as one ElectroDB service would hold them (test/unit/platform/data-service.test.ts builds that service). */
type ElectroService = Service<EntityMap>;

type ReadShapes = typeof DIRECT_READ_SHAPES;
type UpdateShapes = typeof DIRECT_UPDATE_SHAPES;

/**
 * The table's entities and write transactions over them (the part of an ElectroDB service the code uses), and direct
 * requests. `entities`, `transaction` and `prepareUpdate` need the data model (ElectroDB): `await load()` first (a
 * route does unless it is marked `data: 'direct'`, shared/platform/http/app.ts; every other function at init). `reads` and
 * `updates` never need it.
 */
export type DataService = {
  /** Loads the data model, once (`import()`: its own chunk of the bundle). */
  load(): Promise<void>;
  /** Whether `load()` has completed. */
  readonly loaded: boolean;
  entities: ElectroService['entities'];
  transaction: { write: ElectroService['transaction']['write'] };
  /** Items by primary key in one direct GetItem (shared/platform/data/direct-requests.ts): for the hot reads. */
  reads: { [Name in keyof ReadShapes]: ItemReader<ElectroEntityItem<EntityMap[Name]>> };
  /** Single-item updates sent directly, by name (shared/platform/data/direct-request-shapes.ts): for the hot writes. */
  updates: {
    [Name in keyof UpdateShapes]: (values: ValuesOf<UpdateShapes[Name]['kinds']>) => Promise<Partial<ElectroEntityItem<EntityMap[UpdateShapes[Name]['entity']]>> | undefined>;
  };
  /** An UpdateItem that ElectroDB builds once, sent directly with each call's values: for hot writes of loaded code. */
  prepareUpdate: <const K extends ValueKinds>(kinds: K, build: (values: ValuesOf<K>) => object) => (values: ValuesOf<K>) => Promise<unknown>;
  /** An item as stored, by its table key (`pk`, `sk`), read consistently: the audit log's view of an item before a change. */
  storedItem: (key: Record<string, unknown>) => Promise<Record<string, unknown> | undefined>;
};

/** The data model module (shared/platform/data/model.ts). */
export type DataModel = typeof import('./model.js');

/**
 * The document client ElectroDB sends through: one already built (tests, scripts), or the client under it, `documentsOver`,
 * over which the data model builds it when it loads (the document client's module is part of the model's chunk).
 */
export type DocumentClientSource = DynamoDBDocumentClient | { documentsOver: DynamoDBClient };

/** `build(name)` for each shape, by the same names. */
const eachShape = <S extends object, T>(shapes: S, build: (shape: S[keyof S]) => T) =>
  Object.fromEntries(Object.entries(shapes).map(([name, shape]) => [name, build(shape)])) as { [Name in keyof S]: T };

/**
 * Every entity of the single table, bound to one client and table name, and the direct requests. Each entity is built
 * the first time it is used: ElectroDB checks an entity's model against a JSON schema when it builds it, a few
 * milliseconds apiece, and a function uses a third of them. A transaction hands ElectroDB only the entities it names,
 * so it builds no others. Direct requests go through `tableClient`, the low-level client (by default the one under the
 * document client, or the document client itself, which sends them as they are). `loadedModel`: the model, when the
 * caller has imported it already (scripts, tests).
 */
export function createDataService(
  source: DocumentClientSource,
  table: string,
  tableClient: CommandSender = 'documentsOver' in source ? source.documentsOver : source,
  loadedModel?: DataModel,
): DataService {
  let model: { module: DataModel; documents: DynamoDBDocumentClient } | undefined;
  const useModel = (module: DataModel) => {
    model = { module, documents: 'documentsOver' in source ? module.documentClient(source.documentsOver) : source };
  };
  if (loadedModel) useModel(loadedModel);
  const modelOrThrow = () => {
    if (!model) throw new Error('The data model is not loaded: await data.load() first');
    return model;
  };
  const built: Partial<EntityMap> = {};
  const entities = new Proxy(built as EntityMap, {
    get(cache, name: keyof EntityMap) {
      if (typeof name !== 'string') return undefined;
      return (cache[name] ??= (() => {
        const { module, documents } = modelOrThrow();
        const entity = module.ENTITY_FACTORIES[name]();
        entity.setClient(documents);
        entity.setTableName(table);
        return entity as never;
      })());
    },
  });
  return {
    async load() {
      if (!model) useModel(await import('./model.js'));
    },
    get loaded() {
      return model !== undefined;
    },
    entities: entities as unknown as ElectroService['entities'],
    reads: eachShape(DIRECT_READ_SHAPES, (shape) => itemReader(shape, table, tableClient)) as DataService['reads'],
    updates: eachShape(DIRECT_UPDATE_SHAPES, (shape) => directUpdate(shape, table, tableClient)) as DataService['updates'],
    prepareUpdate: (kinds, build) => preparedUpdate(tableClient, kinds, build),
    storedItem: async (key) => {
      const { module, documents } = modelOrThrow();
      return (await documents.send(new module.GetCommand({ TableName: table, Key: key, ConsistentRead: true }))).Item;
    },
    transaction: {
      write: ((build: (tx: EntityMap) => unknown[]) => {
        const named: Partial<EntityMap> = {};
        const items = build(new Proxy(entities, { get: (target, name: keyof EntityMap) => ((named as Record<string, unknown>)[name] = target[name]) }));
        return modelOrThrow().module.createWriteTransaction(named as EntityMap, () => items as never);
      }) as unknown as ElectroService['transaction']['write'],
    },
  };
}

export type Entities = DataService['entities'];

/** An item of an entity as its reads return it. */
export type EntityItem<E extends keyof Entities> = ElectroEntityItem<Entities[E]>;

/** The entities as a `transaction.write` callback receives them: their operations end in `.commit()`. */
export type TransactionEntities = Parameters<Parameters<DataService['transaction']['write']>[0]>[0];
