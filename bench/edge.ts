/**
 * Edge benchmark: `npx tsx bench/edge.ts`. Starts its own local stack in memory, loads licenses, then
 * drives validate and activate over HTTP from a load generator in another process and compares each with
 * its floor on the same DynamoDB Local: validate with a raw GetItem of the license, activate with a raw
 * TransactWriteItems of the activation's own shape; and validate with a bare Node HTTP server. It reads the
 * service's own CPU per validate (this process holds only the gateway and the handlers while the load runs).
 * Finally it counts the DynamoDB requests each operation makes (through an SDK middleware on a counted client).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { createEdgeHandler } from '../functions/edge/app.js';
import { startLocalStack } from '../infra/local/stack.js';
import { FUNCTION_CONFIG_SECTIONS, loadConfig } from '../shared/config.js';
import { createDataService, type DataService } from '../shared/data/service.js';
import type { HttpEvent, HttpResult } from '../shared/http/types.js';
import { newId } from '../shared/ids.js';
import { activationWrites } from '../shared/licensing/activate.js';
import { createProductCatalog } from '../shared/licensing/product-catalog.js';
import { createDeps } from '../shared/runtime.js';
import { edgeEvent, seedTenant } from './support/fixtures.js';
import { loadFromAnotherProcess as runLoad, median, print, type LoadOptions, type LoadResult, type Measured } from './support/load-process.js';

const DURATION_SECONDS = 8;
const WARM_UP_SECONDS = 8;
/** Validate and raw GetItem alternate this many times; each reports its median run (single runs vary by ±10% here). */
const ROUNDS = 5;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const LICENSES = 50;
/** Validate's throughput against raw GetItem's on the same DynamoDB Local; under it, the bench fails. */
const VALIDATE_TARGET = 0.8;

/** The load generator runs in a process of its own: this process holds only the service. */
const loadFromAnotherProcess = (name: string, options: Omit<LoadOptions, 'connections'>) => runLoad(name, { connections: CONNECTIONS, ...options });

/** Requests/s of GetItem of existing license items, at the same concurrency as the HTTP runs. */
async function rawGetItem(endpoint: string, tableName: string, keys: string[], seconds = DURATION_SECONDS): Promise<Measured> {
  const client = DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
  );
  const data = createDataService(client, tableName);
  const latencies: number[] = [];
  const end = Date.now() + seconds * 1000;
  const worker = async (offset: number) => {
    for (let i = offset; Date.now() < end; i += CONNECTIONS) {
      const started = performance.now();
      await client.send(new GetCommand({ ...data.entities.license.get({ licenseKey: keys[i % keys.length]! }).params(), ConsistentRead: true }));
      latencies.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, (_, i) => worker(i)));
  client.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!);
  return { name: 'raw GetItem', rps: latencies.length / seconds, p50: at(0.5), p99: at(0.99), failures: 0 };
}

/** Validate over HTTP; the bodies cycle through every key. */
function validateOverHttp(baseUrl: string, keys: string[], seconds = DURATION_SECONDS): Promise<LoadResult> {
  const bodies = keys.map((key) => JSON.stringify({ license_key: key }));
  return loadFromAnotherProcess('validate (HTTP)', { url: `${baseUrl}/v1/licenses/validate`, duration: seconds, bodies });
}

async function bareServer(): Promise<Measured> {
  const body = JSON.stringify({ valid: true });
  const server = createServer((_, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
  await new Promise<void>((resolve) => server.listen(0, resolve));
  const url = `http://localhost:${(server.address() as AddressInfo).port}/`;
  const result = await loadFromAnotherProcess('bare Node HTTP', { url, duration: DURATION_SECONDS, bodies: ['{}'] });
  await new Promise((resolve) => server.close(resolve));
  return result;
}

/**
 * Activate's floor: the activation's own transaction (activation, domain item, seat, counters, event: the items
 * of `activationWrites`), prepared beforehand and sent raw at the same concurrency, each on a new domain.
 */
async function rawActivationTransaction(endpoint: string, tableName: string, keys: string[]): Promise<Measured> {
  const client = DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
    { marshallOptions: { removeUndefinedValues: true } },
  );
  const data: DataService = createDataService(client, tableName);
  const catalog = createProductCatalog({ data });
  const licenses = await Promise.all(keys.map(async (licenseKey) => (await data.entities.license.get({ licenseKey }).go({ consistent: true })).data!));
  const product = (await catalog.byId(licenses[0]!.productId))!;
  const transactionFor = (i: number) => {
    const license = licenses[i % licenses.length]!;
    const now = new Date();
    const activation = {
      activationId: newId('act'), licenseId: license.licenseId, tenantId: license.tenantId, productId: license.productId,
      domain: `floor-${i}.example.com`, ipAddress: '127.0.0.1', status: 'active' as const, environment: 'production' as const, activatedAt: now.toISOString(),
    };
    const params = data.transaction.write((tx) => Object.values(activationWrites(tx, license, product, activation, now)).flat().filter((item) => !!item)).params();
    // ElectroDB types its params loosely; they are the SDK's own input.
    return params as unknown as TransactWriteCommandInput;
  };
  const prepared = Array.from({ length: 6_000 }, (_, i) => transactionFor(i));
  const latencies: number[] = [];
  let next = 0;
  const end = Date.now() + DURATION_SECONDS * 1000;
  const worker = async () => {
    while (Date.now() < end && next < prepared.length) {
      const started = performance.now();
      await client.send(new TransactWriteCommand(prepared[next++]!));
      latencies.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  client.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!);
  return { name: 'raw TransactWriteItems', rps: latencies.length / DURATION_SECONDS, p50: at(0.5), p99: at(0.99), failures: 0 };
}

/** DynamoDB requests per operation, counted by a middleware on a fresh edge handler's own client. */
async function requestsPerOperation(keys: string[], slug: string) {
  const deps = createDeps(loadConfig(process.env, FUNCTION_CONFIG_SECTIONS.edge), 'edge');
  let requests = 0;
  deps.clients.dynamo.middlewareStack.add((next) => (args) => (requests++, next(args)), { step: 'initialize', name: 'countRequests' });
  const handler = createEdgeHandler(deps) as unknown as (e: HttpEvent, c: unknown) => Promise<HttpResult>;
  const count = async (label: string, e: HttpEvent, expected: string) => {
    requests = 0;
    const result = await handler(e, {});
    console.log(`${label.padEnd(36)} ${requests} DynamoDB request(s)  (expected ${expected}; status ${result.statusCode})`);
  };
  const key = keys[0]!;
  // This handler's product cache is its own, as a new container's: warm it first.
  await count('validate (cold)', edgeEvent('POST', '/v1/licenses/validate', { body: { license_key: key } }), 'any');
  await count('validate', edgeEvent('POST', '/v1/licenses/validate', { body: { license_key: key } }), 'exactly 1');
  // Two rate-limit writes (the key's bucket and the address's), the license read, the transaction.
  await count('activate (new domain)', edgeEvent('POST', '/v1/licenses/activate', { body: { license_key: key, domain: `count-${Date.now()}.example.com` } }), '≤ 4');
  const updateQuery = { slug, license_key: key, version: '0.9' };
  await count('update-check (cold)', edgeEvent('GET', '/v1/wp/update-check', { query: updateQuery }), 'any');
  // The license and the product item, read in parallel; the releases stay cached.
  await count('update-check (warm)', edgeEvent('GET', '/v1/wp/update-check', { query: updateQuery }), '≤ 2');
}

async function main() {
  // Limits scaled far up: activate pays for its rate-limit writes, but one address at bench rates is never refused.
  const stack = await startLocalStack({ port: 0, dataDir: ':memory:', env: { EXPIRY_SWEEP_INTERVAL_MS: '0', RATE_LIMIT_SCALE: '1000000' } });
  try {
    const { keys, slug } = await seedTenant(stack.url, { licenses: LICENSES, seats: 100_000 });
    console.log(`loaded ${keys.length} licenses; ${CONNECTIONS} connections, ${DURATION_SECONDS} s per run\n`);

    const endpoint = process.env.DYNAMODB_ENDPOINT!;
    const tableName = process.env.TABLE_NAME!;
    // Both paths end in the same JVM: warm its JIT on both before anything is measured.
    await validateOverHttp(stack.url, keys, WARM_UP_SECONDS);
    await rawGetItem(endpoint, tableName, keys, WARM_UP_SECONDS);
    const validateRuns: LoadResult[] = [];
    const getItemRuns: Measured[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      validateRuns.push(await validateOverHttp(stack.url, keys));
      getItemRuns.push(await rawGetItem(endpoint, tableName, keys));
    }
    console.log(`validate / raw GetItem per round: ${validateRuns.map((v, i) => (v.rps / getItemRuns[i]!.rps).toFixed(2)).join(', ')}`);
    console.log(`service CPU per validate per round: ${validateRuns.map((v) => `${v.serviceCpuMicros.toFixed(0)} µs`).join(', ')}`);
    const validate = print(median(validateRuns));
    const getItem = print(median(getItemRuns));
    const activate = print(await loadFromAnotherProcess('activate (HTTP)', { url: `${stack.url}/v1/licenses/activate`, duration: DURATION_SECONDS, activateKeys: keys }));
    const transaction = print(await rawActivationTransaction(endpoint, tableName, keys));
    const bare = print(await bareServer());
    const cpu = [...validateRuns.map((v) => v.serviceCpuMicros)].sort((a, b) => a - b)[Math.floor(ROUNDS / 2)]!;
    const ratio = validate.rps / getItem.rps;
    if (ratio < VALIDATE_TARGET) process.exitCode = 1;
    console.log(`\nvalidate / raw GetItem: ${ratio.toFixed(2)}  (medians of ${ROUNDS} alternating runs; target ≥ ${VALIDATE_TARGET})`);
    console.log(`service CPU per validate: ${cpu.toFixed(0)} µs  (median of ${ROUNDS} runs: gateway, handler, SDK; the load generator runs elsewhere)`);
    console.log(`activate / raw TransactWriteItems: ${(activate.rps / transaction.rps).toFixed(2)}  (activate also writes two rate-limit buckets and reads the license)`);
    console.log(`validate / bare HTTP:   ${(validate.rps / bare.rps).toFixed(2)}\n`);
    await requestsPerOperation(keys, slug);
  } finally {
    await stack.stop();
  }
}

await main();
