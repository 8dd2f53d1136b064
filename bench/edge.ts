/**
 * Edge benchmark: `npx tsx bench/edge.ts`. Starts its own local stack in memory, loads licenses, then
 * drives validate and activate over HTTP with autocannon and compares validate with the two floors
 * under it: a raw GetItem against the same DynamoDB Local, and a bare Node HTTP server. Finally it
 * counts the DynamoDB requests each operation makes (through an SDK middleware on a counted client).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import autocannon from 'autocannon';
import { createEdgeHandler } from '../functions/edge/app.js';
import { startLocalStack } from '../infra/local/stack.js';
import { loadConfig } from '../shared/config.js';
import { createDataService } from '../shared/data/service.js';
import type { HttpEvent, HttpResult } from '../shared/http/types.js';
import { createDeps } from '../shared/runtime.js';

const DURATION_SECONDS = 8;
const WARM_UP_SECONDS = 8;
/** Validate and raw GetItem alternate this many times; each reports its median run (single runs vary by ±10% here). */
const ROUNDS = 5;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const LICENSES = 50;
const JSON_HEADERS = { 'content-type': 'application/json' };

type Measured = { name: string; rps: number; p50: number; p99: number; failures: number };

function measured(name: string, result: Awaited<ReturnType<typeof autocannon>>): Measured {
  return { name, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, failures: result.non2xx + result.errors + result.timeouts };
}

function print(run: Measured): Measured {
  console.log(`${run.name.padEnd(24)} ${run.rps.toFixed(0).padStart(7)} req/s  p50 ${run.p50} ms  p99 ${run.p99} ms  failures ${run.failures}`);
  return run;
}

const median = (runs: Measured[]) => [...runs].sort((a, b) => a.rps - b.rps)[Math.floor(runs.length / 2)]!;

/** A tenant with one product and LICENSES licenses of many seats, made through the management API. */
async function loadLicenses(baseUrl: string) {
  const call = async (path: string, body: unknown, cookie?: string) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { ...JSON_HEADERS, origin: baseUrl, ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return { body: (await res.json()) as Record<string, any>, cookie: res.headers.getSetCookie()[0]?.split(';')[0] };
  };
  const { cookie } = await call('/api/auth/register', { email: `bench-${Date.now()}@example.com`, password: 'bench password', name: 'Bench' });
  const product = (await call('/api/products', { name: `Bench ${Date.now()}`, productType: 'plugin' }, cookie)).body;
  const keys: string[] = [];
  for (let i = 0; i < LICENSES; i++) {
    const license = await call('/api/licenses', { productId: product.id, customerEmail: `buyer${i}@example.com`, seats: 100_000 }, cookie);
    keys.push(license.body.licenseKey);
  }
  const form = new FormData();
  form.set('version', '1.0.0');
  form.set('file', new Blob([new Uint8Array([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)])], { type: 'application/zip' }), 'bench.zip');
  const upload = await fetch(`${baseUrl}/api/products/${product.id}/releases/upload`, { method: 'POST', headers: { cookie: cookie!, origin: baseUrl }, body: form });
  await call(`/api/products/${product.id}/releases`, { ...((await upload.json()) as object), version: '1.0.0' }, cookie);
  return { keys, slug: product.slug as string };
}

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

/**
 * Validate over HTTP. The load runs on a worker thread of its own, as a client would from another machine:
 * the gateway and handlers keep this thread, like the raw GetItem loop does. The bodies cycle through every key.
 */
async function validateOverHttp(baseUrl: string, keys: string[], seconds = DURATION_SECONDS): Promise<Measured> {
  const result = await autocannon({
    url: `${baseUrl}/v1/licenses/validate`,
    connections: CONNECTIONS,
    duration: seconds,
    workers: 1,
    requests: keys.map((key) => ({ method: 'POST' as const, headers: JSON_HEADERS, body: JSON.stringify({ license_key: key }) })),
  });
  return measured('validate (HTTP)', result);
}

async function bareServer(): Promise<Measured> {
  const body = JSON.stringify({ valid: true });
  const server = createServer((_, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
  await new Promise<void>((resolve) => server.listen(0, resolve));
  const url = `http://localhost:${(server.address() as AddressInfo).port}/`;
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_SECONDS, workers: 1 });
  await new Promise((resolve) => server.close(resolve));
  return measured('bare Node HTTP', result);
}

/** A payload-2.0 event as the gateway builds it, for calling a handler directly. */
function event(method: string, path: string, body?: unknown, queryStringParameters?: Record<string, string>): HttpEvent {
  return {
    version: '2.0',
    routeKey: `ANY /v1/{proxy+}`,
    rawPath: path,
    rawQueryString: new URLSearchParams(queryStringParameters).toString(),
    headers: body === undefined ? {} : JSON_HEADERS,
    ...(queryStringParameters ? { queryStringParameters } : {}),
    requestContext: {
      accountId: 'bench', apiId: 'bench', domainName: 'localhost', domainPrefix: 'localhost',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'bench' },
      requestId: 'bench', routeKey: 'ANY /v1/{proxy+}', stage: '$default', time: '', timeEpoch: Date.now(),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    isBase64Encoded: false,
  };
}

/** DynamoDB requests per operation, counted by a middleware on a fresh edge handler's own client. */
async function requestsPerOperation(keys: string[], slug: string) {
  const deps = createDeps(loadConfig(), 'licensing');
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
  await count('validate (cold)', event('POST', '/v1/licenses/validate', { license_key: key }), 'any');
  await count('validate', event('POST', '/v1/licenses/validate', { license_key: key }), 'exactly 1');
  // Two rate-limit writes (the key's bucket and the address's), the license read, the transaction.
  await count('activate (new domain)', event('POST', '/v1/licenses/activate', { license_key: key, domain: `count-${Date.now()}.example` }), '≤ 4');
  const updateQuery = { slug, license_key: key, version: '0.9' };
  await count('update-check (cold)', event('GET', '/v1/wp/update-check', undefined, updateQuery), 'any');
  // The license and the product item, read in parallel; the releases stay cached.
  await count('update-check (warm)', event('GET', '/v1/wp/update-check', undefined, updateQuery), '≤ 2');
}

async function main() {
  // Limits scaled far up: activate pays for its rate-limit writes, but one address at bench rates is never refused.
  const stack = await startLocalStack({ port: 0, dataDir: ':memory:', env: { EXPIRY_SWEEP_INTERVAL_MS: '0', RATE_LIMIT_SCALE: '1000000' } });
  try {
    const { keys, slug } = await loadLicenses(stack.url);
    console.log(`loaded ${keys.length} licenses; ${CONNECTIONS} connections, ${DURATION_SECONDS} s per run\n`);

    const endpoint = process.env.DYNAMODB_ENDPOINT!;
    const tableName = process.env.TABLE_NAME!;
    // Both paths end in the same JVM: warm its JIT on both before anything is measured.
    await validateOverHttp(stack.url, keys, WARM_UP_SECONDS);
    await rawGetItem(endpoint, tableName, keys, WARM_UP_SECONDS);
    const validateRuns: Measured[] = [];
    const getItemRuns: Measured[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      validateRuns.push(await validateOverHttp(stack.url, keys));
      getItemRuns.push(await rawGetItem(endpoint, tableName, keys));
    }
    console.log(`validate / raw GetItem per round: ${validateRuns.map((v, i) => (v.rps / getItemRuns[i]!.rps).toFixed(2)).join(', ')}`);
    const validate = print(median(validateRuns));

    const pick = () => keys[Math.floor(Math.random() * keys.length)]!;
    let domain = 0;
    print(
      measured(
        'activate (HTTP)',
        await autocannon({
          url: `${stack.url}/v1/licenses/activate`,
          connections: CONNECTIONS,
          duration: DURATION_SECONDS,
          requests: [
            {
              method: 'POST',
              setupRequest: (r) => ({ ...r, headers: JSON_HEADERS, body: JSON.stringify({ license_key: pick(), domain: `site-${domain++}.example` }) }),
            },
          ],
        }),
      ),
    );
    const getItem = print(median(getItemRuns));
    const bare = print(await bareServer());
    console.log(`\nvalidate / raw GetItem: ${(validate.rps / getItem.rps).toFixed(2)}  (medians of ${ROUNDS} alternating runs)`);
    console.log(`validate / bare HTTP:   ${(validate.rps / bare.rps).toFixed(2)}\n`);
    await requestsPerOperation(keys, slug);
  } finally {
    await stack.stop();
  }
}

await main();
