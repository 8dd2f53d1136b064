import { describe, expect, it } from 'vitest';
import { licenseEntity } from '../../../shared/platform/data/entities/license.js';
import { ENTITY_FACTORIES } from '../../../shared/platform/data/model.js';
import { GLOBAL_INDEXES, LICENSE_ATTRIBUTES, UNPROJECTED_LICENSE_ATTRIBUTES } from '../../../shared/platform/data/table-schema.js';

type EntityModel = { schema: { attributes: Record<string, unknown> }; model: { indexes: Record<string, { index?: string }> } };

/** The indexes each entity is in, as ElectroDB reads its model. */
const indexesOf = (entity: unknown) => Object.values((entity as EntityModel).model.indexes).flatMap((index) => (index.index ? [index.index] : []));

describe('index projections', () => {
  it('copy into gsi4 and gsi5 every attribute of a license (and ElectroDB’s own), as the entity defines them, but those added since', () => {
    const attributes = Object.keys((licenseEntity() as unknown as EntityModel).schema.attributes);
    expect([...LICENSE_ATTRIBUTES, ...UNPROJECTED_LICENSE_ATTRIBUTES].sort()).toEqual(['__edb_e__', '__edb_v__', ...attributes].sort());
  });

  it('include only a license’s attributes where only licenses are: no other entity is in an index that leaves its attributes out', () => {
    const partial = GLOBAL_INDEXES.filter((index) => index.projection.type === 'INCLUDE').map((index) => index.indexName);
    expect(partial).toEqual(['gsi4', 'gsi5']);
    const inPartial = Object.entries(ENTITY_FACTORIES).filter(([, factory]) => indexesOf(factory()).some((index) => partial.includes(index)));
    expect(inPartial.map(([name]) => name)).toEqual(['license']);
  });

  it('stay within DynamoDB’s 100 included attributes over all indexes', () => {
    const included = GLOBAL_INDEXES.reduce((sum, index) => sum + (index.projection.type === 'INCLUDE' ? index.projection.attributes.length : 0), 0);
    expect(included).toBeLessThanOrEqual(100);
  });
});
