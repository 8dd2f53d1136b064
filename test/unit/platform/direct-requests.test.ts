import { readFileSync } from 'node:fs';
import { ConditionalCheckFailedException, DynamoDBClient, GetItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { Entity } from 'electrodb';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { DIRECT_UPDATES, generatedShapesModule, keyAttributes, readShape } from '../../../shared/platform/data/direct-request-shapes.js';
import { preparedRequest, requestFiller } from '../../../shared/platform/data/direct-requests.js';
import { DIRECT_UPDATE_SHAPES } from '../../../shared/platform/data/direct-requests.generated.js';
import { writeItem } from '../../../shared/platform/data/writes.js';
import { model, primaryKey } from '../../../shared/platform/data/keys.js';
import { ENTITY_FACTORIES } from '../../../shared/platform/data/model.js';
import * as dataModel from '../../../shared/platform/data/model.js';
import { createDataService } from '../../../shared/platform/data/service.js';
import { activationItem, ids, licenseItem, NOW, TENANT } from '../../support/mock-items.js';

const TABLE = 'table';
const credentials = { accessKeyId: 'x', secretAccessKey: 'x' };

/** Values that would expose any escaping, casing or separator handling: ElectroDB does none. */
const AWKWARD = ['WIDGET-ABCD-EFGH-JKLM-NPQR', 'a#b_c', 'MiXeD Case', 'dé.example.com', '$licensing#x', ''];

/** An entity as these tests use it, whatever its model. */
type AnyModelEntity = { setTableName(table: string): void; get(key: unknown): { params(): Record<string, unknown> } };

/** ElectroDB's params for the low-level client: what a prepared request must equal. */
const marshalled = (params: Record<string, unknown>) => {
  const { Key, ExpressionAttributeValues, ...rest } = params as Record<string, Record<string, unknown>>;
  return { ...rest, Key: marshall(Key!), ...(ExpressionAttributeValues && { ExpressionAttributeValues: marshall(ExpressionAttributeValues) }) };
};

const hasPaddedKey = (entity: ReturnType<(typeof ENTITY_FACTORIES)[keyof typeof ENTITY_FACTORIES]>) =>
  keyAttributes(entity).some((name) => (entity.schema.attributes as Record<string, { padding?: unknown }>)[name]?.padding);

describe('direct requests: prepared from ElectroDB', () => {
  it('are generated as ElectroDB builds them today (else: npm run generate:direct-requests)', () => {
    const generated = readFileSync(new URL('../../../shared/platform/data/direct-requests.generated.ts', import.meta.url), 'utf8');
    expect(generated).toEqual(generatedShapesModule());
  });

  it("reads every entity's item by the key ElectroDB builds", () => {
    for (const [name, factory] of Object.entries(ENTITY_FACTORIES).filter(([, factory]) => !hasPaddedKey(factory()))) {
      const entity = factory() as unknown as AnyModelEntity;
      entity.setTableName(TABLE);
      const shape = readShape(factory());
      const request = requestFiller(shape.key, shape.request);
      const names = keyAttributes(factory());
      for (const [offset, value] of AWKWARD.entries()) {
        // A different value in each slot, so that swapped slots would show.
        const key = Object.fromEntries(names.map((attribute, slot) => [attribute, `${value}${slot + offset}`]));
        expect([name, { TableName: TABLE, ...request(key) }]).toEqual([name, marshalled(entity.get(key).params())]);
      }
    }
  });

  it('refuses a reader of an entity whose key holds a padded number, which a prepared key cannot carry', () => {
    const padded = Object.entries(ENTITY_FACTORIES).filter(([, factory]) => hasPaddedKey(factory()));
    expect(padded.map(([name]) => name)).toEqual(['importError', 'importWarning']);
    for (const [, factory] of padded) expect(() => readShape(factory())).toThrow(/padded key attributes/);
  });

  it("updates an active domain's last check as ElectroDB would (the generated update)", async () => {
    const data = createDataService(DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1', credentials })), TABLE, undefined, dataModel);
    const { kinds, request } = DIRECT_UPDATE_SHAPES.domainSeen;
    const fill = requestFiller(kinds, request);
    for (const value of AWKWARD) {
      const values = { licenseId: `lic_${value}`, domain: `${value}.example.com`, lastCheckedAt: NOW.toISOString(), lastIpAddress: `2001:db8::${value.length}` };
      const electro = DIRECT_UPDATES.domainSeen.build(data.entities.activeDomain, values) as Record<string, unknown>;
      const { Key, ExpressionAttributeValues, ...rest } = electro as Record<string, Record<string, unknown>>;
      expect({ ...fill(values), TableName: TABLE }).toEqual({ ...rest, Key: marshall(Key!), ExpressionAttributeValues: marshall(ExpressionAttributeValues!) });
    }
  });

  it('writes a rate-limit bucket as ElectroDB would, numbers and conditions included', () => {
    const { rateLimit } = createDataService(DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1', credentials })), TABLE, undefined, dataModel).entities;
    const build = (v: { bucket: string; emission: number; ttl: number; now: number; upTo: number }) =>
      rateLimit
        .update({ bucket: v.bucket })
        .add({ tat: v.emission })
        .set({ ttl: v.ttl })
        .where(({ tat }, { gt, lte }) => `${gt(tat, v.now)} AND ${lte(tat, v.upTo)}`)
        .params({ response: 'none' });
    const request = preparedRequest({ bucket: 'string', emission: 'number', ttl: 'number', now: 'number', upTo: 'number' }, build);
    for (const bucket of AWKWARD) {
      const values = { bucket: `activation-key#${bucket}`, emission: 1500.5, ttl: 1_900_000_000, now: 1_893_456_000_000, upTo: 1_893_456_000_000 };
      expect(request(values)).toEqual(marshalled(build(values)));
    }
  });

  it('refuses a request that does not carry a value as given (a key whose casing the model changes)', () => {
    const lowered = new Entity({
      model: model('lowered'),
      attributes: { code: { type: 'string', required: true } },
      indexes: { byCode: { pk: { field: 'pk', composite: ['code'] }, sk: { field: 'sk', composite: [] } } },
    });
    lowered.setTableName(TABLE);
    expect(() => preparedRequest({ code: 'string' }, (key) => lowered.get(key).params())).toThrow(/code/);
  });
});

describe('direct requests: items read', () => {
  const low = mockClient(DynamoDBClient);
  const doc = mockClient(DynamoDBDocumentClient);
  afterEach(() => {
    low.reset();
    doc.reset();
  });
  // The worker goes on to other files (isolate: false): the clients' real send comes back.
  afterAll(() => {
    low.restore();
    doc.restore();
  });
  const data = createDataService(DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1', credentials })), TABLE, new DynamoDBClient({ region: 'us-east-1', credentials }), dataModel);

  /** Both paths answered from the one stored item (as the entity wrote it, plus `extra` fields): what each returns. */
  async function bothReads<E extends 'license' | 'product' | 'leaseHold'>(entity: E, item: Record<string, unknown>, extra: Record<string, unknown> = {}) {
    const electroEntity = data.entities[entity] as unknown as { put(i: unknown): { params(): { Item: Record<string, unknown> } }; get(k: unknown): { go(o: object): Promise<{ data: unknown }> } };
    const stored = { ...electroEntity.put(item).params().Item, ...extra };
    low.on(GetItemCommand).resolves({ Item: marshall(stored, { removeUndefinedValues: true }) });
    doc.on(GetCommand).resolves({ Item: stored });
    const key = Object.fromEntries(keyAttributes(data.entities[entity]).map((name) => [name, item[name]]));
    const direct = await (data.reads[entity] as { get(k: unknown, o: object): Promise<unknown> }).get(key, { consistent: true });
    const electro = (await electroEntity.get(key).go({ consistent: true })).data;
    return { direct, electro: electro ?? undefined, sent: low.commandCalls(GetItemCommand)[0]?.args[0].input };
  }

  it('answers what ElectroDB answers for the same stored item', async () => {
    const signingKey = { keyId: 'sig_a', publicKey: 'cHVi', sealedPrivateKey: 'v1.x.y.z.w', createdAt: NOW.toISOString() };
    const product = {
      productId: ids.product, tenantId: TENANT, name: 'Widget', slug: 'widget', productType: 'plugin', status: 'active', isPremium: false,
      requiresLicense: true, managesReleases: true, licensePrefix: 'WIDGET-', publicKey: 'pk_a', plansCount: 2, createdAt: NOW.toISOString(),
      updatedAt: NOW.toISOString(), stagingPatterns: ['*.staging.*', 'localhost'], stagingActivationLimit: 5, offlineValidityDays: 7,
      signingKeys: [signingKey, { ...signingKey, keyId: 'sig_b', expiresAt: NOW.toISOString() }], signingKeyId: 'sig_a', deletedAt: NOW.toISOString(),
    };
    const cases = [
      await bothReads('license', licenseItem),
      await bothReads('license', { ...licenseItem, planId: ids.plan, customerName: 'Ann', stagingCount: 2, expiresAt: NOW.toISOString() }),
      // A field outside the model (written by a newer or older version) is left out by both.
      await bothReads('license', licenseItem, { somethingElse: 'x' }),
      await bothReads('product', product),
      await bothReads('leaseHold', { licenseId: ids.license, machine: 'build-agent-7', leaseId: 'lse_1', slot: 0, expiresAt: NOW.toISOString(), ttl: 1_900_000_000 }),
    ];
    for (const { direct, electro } of cases) {
      expect(electro).toBeDefined();
      expect(direct).toEqual(electro);
    }
    const key = data.entities.license.get({ licenseKey: licenseItem.licenseKey }).params().Key as Record<string, string>;
    expect(cases[0]!.sent).toEqual({ TableName: TABLE, Key: marshall(key), ConsistentRead: true });
  });

  it('finds no item where ElectroDB finds none: absent, or of another entity or version', async () => {
    for (const identity of [{ __edb_e__: 'licenseRef' }, { __edb_v__: '2' }]) {
      const { direct, electro } = await bothReads('license', licenseItem, identity);
      expect([direct, electro]).toEqual([undefined, undefined]);
    }
    low.on(GetItemCommand).resolves({});
    expect(await data.reads.license.get({ licenseKey: licenseItem.licenseKey })).toBeUndefined();
  });

  it('refuses a model whose answers ElectroDB would reshape (a getter)', () => {
    const shaped = new Entity({
      model: model('shaped'),
      attributes: { code: { type: 'string', required: true }, label: { type: 'string', get: (value: string) => value.toUpperCase() } },
      indexes: { byCode: primaryKey(['code']) },
    });
    shaped.setTableName(TABLE);
    expect(() => readShape(shaped)).toThrow(/label/);
  });

  it("answers the values an update replaced, and fails as the SDK does when the item is gone (writeItem's refusal)", async () => {
    const old = { lastCheckedAt: '2026-11-01T00:00:00.000Z', lastIpAddress: '192.0.2.1' };
    low
      .on(UpdateItemCommand)
      .resolvesOnce({ Attributes: marshall({ ...old, __edb_e__: 'activeDomain', __edb_v__: '1' }) })
      .rejectsOnce(new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} }));
    const values = { licenseId: ids.license, domain: activationItem.domain, lastCheckedAt: NOW.toISOString(), lastIpAddress: '192.0.2.2' };
    expect(await data.updates.domainSeen(values)).toEqual(old);
    expect(low.commandCalls(UpdateItemCommand)[0]!.args[0].input.TableName).toBe(TABLE);
    expect(await writeItem(() => data.updates.domainSeen(values))).toEqual({ written: false });
  });
});
