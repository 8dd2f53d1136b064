import { EntityIdentifierFields, type Entity } from 'electrodb';
import { requestTemplate, type ReadShape, type UpdateShape, type ValueKinds, type ValuesOf } from './direct-requests.js';
import { ENTITY_FACTORIES, type EntityMap } from './model.js';

/**
 * What the direct requests are, defined through ElectroDB, and the shapes made of them: the source of
 * shared/platform/data/direct-requests.generated.ts (`npm run generate:direct-requests`; test/unit/platform/direct-requests.test.ts fails
 * when the file is not what this makes today). The runtime reads the generated shapes, so it needs no ElectroDB for them.
 */

/** Any entity of the model (ElectroDB's types are generic over four parameters). */
type AnyEntity = Entity<any, any, any, any>;

/**
 * The entities read by key with a direct GetItem (`data.reads`): the license, product and public key of every license
 * call, the active domain a check or offline license file names, and a lease's.
 */
export const DIRECT_READ_ENTITIES = ['license', 'product', 'productPublicKey', 'activeDomain', 'leaseHold', 'leasePoolFill'] as const;

type UpdateDefinition<K extends ValueKinds, E extends keyof EntityMap> = { entity: E; kinds: K; build: (entity: EntityMap[E], values: ValuesOf<K>) => object };
const update = <const K extends ValueKinds, E extends keyof EntityMap>(definition: UpdateDefinition<K, E>) => definition;

/** The single-item updates sent directly (`data.updates`), by name. */
export const DIRECT_UPDATES = {
  /**
   * A validate, check or repeated activate saw an active domain (shared/licensing/operations/activity.ts): its last check, written
   * only if the item exists; it answers the values it replaced.
   */
  domainSeen: update({
    entity: 'activeDomain',
    kinds: { licenseId: 'string', domain: 'string', lastCheckedAt: 'string', lastIpAddress: 'string' },
    build: (activeDomain, v) =>
      activeDomain.patch({ licenseId: v.licenseId, domain: v.domain }).set({ lastCheckedAt: v.lastCheckedAt, lastIpAddress: v.lastIpAddress }).params({ response: 'updated_old' }),
  }),
};

/** The table name the shapes are built with: the runtime sends its own. */
const SHAPE_TABLE = 'table';

/** The table index's composite attributes, partition key first: what names an item. */
export function keyAttributes(entity: AnyEntity): string[] {
  const indexes = entity.schema.indexes as Record<string, { index?: string; pk: { composite: readonly string[] }; sk?: { composite: readonly string[] } }>;
  const table = Object.values(indexes).find((index) => index.index === undefined)!;
  return [...table.pk.composite, ...(table.sk?.composite ?? [])];
}

/** Attribute options that make ElectroDB's answer differ from the stored item: direct requests refuse models that use them. */
const UNSUPPORTED_OPTIONS = ['get', 'hidden', 'watch'] as const;

/** Each model attribute's stored field (`field`, else its name). */
function fieldsOf(entity: AnyEntity): Record<string, string> {
  const name = entity.schema.model.entity;
  return Object.fromEntries(
    Object.entries(entity.schema.attributes as Record<string, Record<string, unknown>>).map(([attribute, definition]) => {
      const option = UNSUPPORTED_OPTIONS.find((key) => definition[key] !== undefined);
      if (option) throw new Error(`${name}.${attribute}: the \`${option}\` option is not supported by direct requests`);
      return [attribute, (definition.field as string | undefined) ?? attribute];
    }),
  );
}

const withoutTable = ({ TableName: _table, ...request }: Record<string, unknown>) => request;

/** The shape of a direct read of `entity`'s items. */
export function readShape(entity: AnyEntity): ReadShape {
  const padded = keyAttributes(entity).filter((name) => (entity.schema.attributes as Record<string, { padding?: unknown }>)[name]?.padding);
  // A padded key value's length depends on the value, so a template cannot hold it (importError's row).
  if (padded.length > 0) throw new Error(`${entity.schema.model.entity}.${padded.join(', ')}: padded key attributes are not supported by direct reads`);
  const key = Object.fromEntries(keyAttributes(entity).map((name) => [name, 'string' as const]));
  const { entity: name, version } = entity.schema.model;
  return {
    entity: name,
    version,
    identifierFields: EntityIdentifierFields as [string, string],
    key,
    request: withoutTable(requestTemplate(key, (values) => entity.get(values as never).params({ table: SHAPE_TABLE }))),
    fields: fieldsOf(entity),
  };
}

function modelEntity<E extends keyof EntityMap>(name: E): EntityMap[E] {
  const entity = ENTITY_FACTORIES[name]() as EntityMap[E];
  entity.setTableName(SHAPE_TABLE);
  return entity;
}

/** Every direct request's shape, as ElectroDB builds it today. */
export function directRequestShapes() {
  const reads = Object.fromEntries(DIRECT_READ_ENTITIES.map((name) => [name, readShape(modelEntity(name))]));
  const updates = Object.fromEntries(
    Object.entries(DIRECT_UPDATES).map(([name, { entity, kinds, build }]) => {
      const model = modelEntity(entity);
      const shape: UpdateShape = { entity, kinds, request: withoutTable(requestTemplate(kinds, (values) => build(model as never, values as never))), fields: fieldsOf(model) };
      return [name, shape];
    }),
  );
  return { reads, updates };
}

/** The text of shared/platform/data/direct-requests.generated.ts. */
export function generatedShapesModule(): string {
  const { reads, updates } = directRequestShapes();
  const json = (value: unknown) => JSON.stringify(value, null, 2);
  return [
    '// Generated by `npm run generate:direct-requests` from shared/platform/data/direct-request-shapes.ts: do not edit.',
    '// test/unit/platform/direct-requests.test.ts fails when this is not what ElectroDB builds today.',
    "import type { ReadShape, UpdateShape } from './direct-requests.js';",
    '',
    `export const DIRECT_READ_SHAPES = ${json(reads)} as const satisfies Record<string, ReadShape>;`,
    '',
    `export const DIRECT_UPDATE_SHAPES = ${json(updates)} as const satisfies Record<string, UpdateShape>;`,
    '',
  ].join('\n');
}
