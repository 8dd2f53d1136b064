import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { Service } from 'electrodb';
import { describe, expect, it } from 'vitest';
import { ENTITY_FACTORIES } from '../../../shared/platform/data/model.js';
import { createDataService } from '../../../shared/platform/data/service.js';
import * as dataModel from '../../../shared/platform/data/model.js';

const TABLE = 'table';
const client = () => DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } }));

/** An ElectroDB service of every entity, as one would be built eagerly: the reference the lazy one must match. */
function eagerService() {
  const entities = Object.fromEntries(Object.entries(ENTITY_FACTORIES).map(([name, factory]) => [name, factory()]));
  return new Service(entities as never, { table: TABLE }) as unknown as ReturnType<typeof createDataService>;
}

describe('the data service', () => {
  it('holds entities that together form one valid ElectroDB service', () => {
    expect(() => eagerService()).not.toThrow();
  });

  it('builds the same requests as an eager ElectroDB service', () => {
    const lazy = createDataService(client(), TABLE, undefined, dataModel);
    const eager = eagerService();
    const license = { licenseKey: 'KEY-AAAA', licenseId: 'lic_1', tenantId: 'usr_1', productId: 'prd_1', customerEmail: 'a@example.com', status: 'active' as const, seats: 1, createdAt: 'now', updatedAt: 'now' };
    expect(lazy.entities.license.get({ licenseKey: 'KEY-AAAA' }).params()).toEqual(eager.entities.license.get({ licenseKey: 'KEY-AAAA' }).params());
    expect(lazy.entities.license.create(license).params()).toEqual(eager.entities.license.create(license).params());
    expect(lazy.entities.activation.query.byLicense({ licenseId: 'lic_1' }).params()).toEqual(eager.entities.activation.query.byLicense({ licenseId: 'lic_1' }).params());
    const write = (data: ReturnType<typeof createDataService>) =>
      data.transaction.write(({ license: licenses, licenseRef }) => [
        licenses.create(license).commit(),
        licenseRef.create({ licenseId: 'lic_1', licenseKey: 'KEY-AAAA', tenantId: 'usr_1' }).commit(),
      ]).params();
    // What is sent: ElectroDB also tags each item with a hidden reference to its entity.
    const sent = (params: object) => JSON.parse(JSON.stringify(params));
    expect(sent(write(lazy))).toEqual(sent(write(eager)));
  });

  it('builds an entity only when it is first used, and a transaction only the entities it names', () => {
    const built: string[] = [];
    const lazy = createDataService(client(), TABLE, undefined, dataModel);
    const factories = ENTITY_FACTORIES as Record<string, () => unknown>;
    const originals = { ...factories };
    for (const name of Object.keys(factories)) factories[name] = () => (built.push(name), originals[name]!());
    try {
      lazy.entities.license.get({ licenseKey: 'KEY-AAAA' }).params();
      lazy.entities.license.get({ licenseKey: 'KEY-BBBB' }).params();
      lazy.transaction.write(({ activeDomain }) => [activeDomain.delete({ licenseId: 'lic_1', domain: 'example.com' }).commit()]).params();
      expect(built).toEqual(['license', 'activeDomain']);
    } finally {
      Object.assign(factories, originals);
    }
  });
});
