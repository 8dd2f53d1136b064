import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DescribeTableCommand, DynamoDBClient, paginateScan } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalStack, type LocalStack } from '../../../infra/local/stack.js';
import type { Probe } from '../../../scripts/upgrade-fixture/rows.js';
import { LOCAL_CREDENTIALS } from '../../../shared/platform/clients.js';
import { ENTITY_FACTORIES } from '../../../shared/platform/data/model.js';
import { GLOBAL_INDEXES, TABLE_STREAM_VIEW } from '../../../shared/platform/data/table-schema.js';
import { Client } from '../../support/client.js';
import { startFakeStripe } from '../../support/fake-stripe.js';

/**
 * DECISIONS §21, locally: `npm start` of this release serves, unchanged, the `DATA_DIR` that `npm start` of the
 * previous one wrote (`test/fixtures/upgrade/`, made by `npm run fixture:upgrade`). A copy of it is started here as
 * `npm start` starts it, with the environment it was written with; every probe the previous release answered
 * (validate, update check, the portal, the management API) must be answered the same. An answer may gain fields
 * (a release may add to its answers); none may lose or change one.
 */
type Recorded = Probe & { answer: { status: number; body: unknown } };
type Fixture = { writtenBy: { version: string; commit: string }; env: Record<string, string>; apiKey: string; probes: Recorded[] };

const FIXTURE = new URL('../../fixtures/upgrade/', import.meta.url);
const fixture = JSON.parse(readFileSync(new URL('answers.json', FIXTURE), 'utf8')) as Fixture;

let stack: LocalStack;
let stripe: Awaited<ReturnType<typeof startFakeStripe>>;
let dataDir: string;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'upgrade-rehearsal-'));
  cpSync(new URL('data', FIXTURE), dataDir, { recursive: true });
  stripe = await startFakeStripe();
  stack = await startLocalStack({
    port: 0,
    dataDir,
    lightJvm: true,
    env: { ...fixture.env, STRIPE_API_URL: stripe.url },
    originVerifyToken: randomBytes(24).toString('base64url'),
  });
}, 180_000);
afterAll(async () => {
  await stack?.stop();
  await stripe?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** What moves with the clock in an answer: a signed link's expiry and signature, an API key's last use. */
function steady(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(/([?&](?:expires|signature)=)[^&]+/g, '$1…');
  if (Array.isArray(value)) return value.map(steady);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).flatMap(([key, field]) => (key === 'lastUsedAt' ? [] : [[key, steady(field)]])));
  }
  return value;
}

const table = () => new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT, region: 'us-east-1', credentials: LOCAL_CREDENTIALS });

describe(`a DATA_DIR written by ${fixture.writtenBy.version} (${fixture.writtenBy.commit.slice(0, 7)})`, () => {
  it('has its table brought to this release’s shape on start', async () => {
    const { Table } = await table().send(new DescribeTableCommand({ TableName: process.env.TABLE_NAME }));
    const indexes = (Table!.GlobalSecondaryIndexes ?? []).map((index) => [index.IndexName, index.Projection?.ProjectionType, index.IndexStatus]);
    expect(indexes.sort()).toEqual(GLOBAL_INDEXES.map((index) => [index.indexName, index.projection.type, 'ACTIVE']));
    expect(Table!.StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: TABLE_STREAM_VIEW });
  });

  it('holds only rows of kinds this release knows', async () => {
    const known = new Set(Object.values(ENTITY_FACTORIES).map((factory) => (factory() as unknown as { schema: { model: { entity: string } } }).schema.model.entity));
    const kinds = new Set<string>();
    for await (const page of paginateScan({ client: table() }, { TableName: process.env.TABLE_NAME, ProjectionExpression: '#e', ExpressionAttributeNames: { '#e': '__edb_e__' } })) {
      for (const item of page.Items ?? []) kinds.add(item.__edb_e__?.S ?? '(no entity)');
    }
    expect(kinds.size).toBeGreaterThan(40);
    expect([...kinds].filter((kind) => !known.has(kind))).toEqual([]);
  });

  it.each(fixture.probes.map((probe) => [probe.name, probe] as const))('answers %s as the release that wrote it did', async (_name, probe) => {
    const client = Object.assign(new Client(stack.url), probe.auth === 'key' ? { bearer: fixture.apiKey } : {});
    const res = await client.request(probe.method, probe.path, { body: probe.body, origin: null });
    expect(res.status, res.text).toBe(probe.answer.status);
    expect(steady(res.body)).toMatchObject(steady(probe.answer.body) as object);
  });
});
