/**
 * Edge benchmark: `npx tsx bench/edge.ts` (~10–15 min). Starts its own local stack in memory and loads licenses, then:
 *
 * 1. In a process of its own (bench/support/edge-process.ts), what a Lambda pays: the edge handler's CPU per validate
 *    against the CPU of a raw low-level GetItem of the same license item (a DynamoDBClient with the SDK's defaults),
 *    in rounds whose sides take turns every 20 calls, one call at a time as a Lambda serves them. Target: at most 1.25 times. Beside it, for information, the same GetItem through
 *    a table client built as the service builds its own (which builds each command's middleware once): what the
 *    handler adds to its own read. And activate against a raw TransactWriteItems of the activation's own items
 *    (activate also writes two rate-limit buckets and reads the license).
 * 2. Over HTTP through the local gateway, from a load generator in another process: validate against raw GetItem
 *    (target ≥ 0.75) and activate against raw TransactWriteItems of its shape (target ≥ 0.5), each in alternating runs
 *    on the same DynamoDB Local (a round after which a core runs a fixed piece of work over 15% slower than the run's
 *    fastest is run again: the host slowed the machine during it, bench/support/quiet-core.ts); the service's own CPU
 *    per validate; a bare Node HTTP server for scale.
 * 3. DynamoDB requests per operation, counted by an SDK middleware on a fresh handler's clients.
 *
 * Every comparison is judged on the median of its rounds' ratios; a run whose rounds spread over ±15% says so
 * instead (bench/support/rounds.ts). Rounds that no warm-up run precedes begin with one that is run and dropped. Exit code: 1 when a target is missed, 2 when one could not be judged.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { createEdgeHandler } from '../functions/edge/app.js';
import { startLocalStack } from '../infra/local/stack.js';
import { FUNCTION_CONFIG_SECTIONS, loadConfig } from '../shared/platform/config.js';
import type { DataService } from '../shared/platform/data/service.js';
import type { HttpEvent, HttpResult } from '../shared/platform/http/types.js';
import { createLoadedDeps } from '../shared/platform/runtime.js';
import { activationTransactions, rawClient, type ActivationFloor } from './support/activation-floor.js';
import type { EdgeCpu, EdgeProcessOptions } from './support/edge-process.js';
import { edgeEvent, NONCE, seedTenant } from './support/fixtures.js';
import { loadFromAnotherProcess as runLoad, median, print, type LoadOptions, type LoadResult, type Measured } from './support/load-process.js';
import { machineStayedAtOwnSpeed, nodeOn, quietestCore } from './support/quiet-core.js';
import { alternateAfterWarmUp, alternateAtSteadySpeed, exitCodeOf, judgeRatio, medianOf, printLoad, type Verdict } from './support/rounds.js';

/** Seconds per HTTP run: 6-second runs spread ±15–22% over five rounds (a JVM pause or a burst weighs on one run), 10-second ones ±7–14%. */
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARM_UP_SECONDS = 8;
/** HTTP runs of each side; in-process batches of each side. */
const ROUNDS = 5;
const IN_PROCESS_ROUNDS = 7;
/**
 * Validates (and GetItems) of each side per in-process round: a major GC lands on one side's calls, and in rounds of
 * 300 one weighed ±11–13% on a round's ratio; in rounds of 1,200 the rounds spread ±6–7% (same medians).
 */
const VALIDATES_PER_BATCH = 1_200;
const ACTIVATES_PER_BATCH = 100;
const EDGE_PROCESS = fileURLToPath(new URL('./support/edge-process.ts', import.meta.url));
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const LICENSES = 50;
/** The targets of issue 26. */
const TARGETS = { handlerCpu: 1.25, validateHttp: 0.75, activateHttp: 0.5 };

/** The load generator runs in a process of its own: this process holds only the service. */
const loadFromAnotherProcess = (name: string, options: Omit<LoadOptions, 'connections'>) => runLoad(name, { connections: CONNECTIONS, ...options });

/** One license item's key as the low-level client sends it (ElectroDB's own key, marshalled). */
const licenseKeyOf = (data: DataService, licenseKey: string) => marshall(data.entities.license.get({ licenseKey }).params().Key as Record<string, string>);

/** Requests/s of GetItem of existing license items, at the same concurrency as the HTTP runs. */
async function rawGetItem(data: DataService, tableName: string, keys: string[], seconds = DURATION_SECONDS): Promise<Measured> {
  const client = rawClient();
  const itemKeys = keys.map((key) => licenseKeyOf(data, key));
  const latencies: number[] = [];
  const end = Date.now() + seconds * 1000;
  const worker = async (offset: number) => {
    for (let i = offset; Date.now() < end; i += CONNECTIONS) {
      const started = performance.now();
      await client.send(new GetItemCommand({ TableName: tableName, Key: itemKeys[i % itemKeys.length]!, ConsistentRead: true }));
      latencies.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, (_, i) => worker(i)));
  client.destroy();
  return measured('raw GetItem', latencies, seconds);
}

function measured(name: string, latencies: number[], seconds: number): Measured {
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!);
  return { name, rps: latencies.length / seconds, p50: at(0.5), p99: at(0.99), failures: 0 };
}

/** Validate over HTTP; the bodies cycle through every key. */
function validateOverHttp(baseUrl: string, keys: string[], seconds = DURATION_SECONDS): Promise<LoadResult> {
  const bodies = keys.map((key) => JSON.stringify({ license_key: key }));
  return loadFromAnotherProcess('validate (HTTP)', { url: `${baseUrl}/v1/licenses/validate`, duration: seconds, bodies, headers: NONCE });
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

/** Transactions/s of the activation's shape at the same concurrency as the HTTP runs, prepared before the clock starts. */
async function rawActivationTransaction(floor: ActivationFloor): Promise<Measured> {
  const prepared = Array.from({ length: 4_000 }, () => floor.next());
  const latencies: number[] = [];
  let next = 0;
  const end = Date.now() + DURATION_SECONDS * 1000;
  const worker = async () => {
    while (Date.now() < end && next < prepared.length) {
      const started = performance.now();
      await floor.client.send(new TransactWriteCommand(prepared[next++]!));
      latencies.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  return measured('raw TransactWriteItems', latencies, DURATION_SECONDS);
}

/**
 * Runs bench/support/edge-process.ts in a process of its own (the handler and the raw clients, nothing of the stack),
 * pinned to the quieter core (bench/support/quiet-core.ts): moved between a fast and a slow core, one side of a round
 * could run on each.
 */
function inOwnProcess<T>(options: EdgeProcessOptions): Promise<T> {
  const [command, args] = nodeOn(quietestCore()?.core, ['--import', 'tsx', EDGE_PROCESS, JSON.stringify(options)]);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out) as T) : reject(new Error(`edge process exited with ${code}`))));
  });
}

/** Part 1: the handler's CPU against its raw floors, in a process of its own, in interleaved rounds. */
async function inProcess(keys: string[]): Promise<Verdict> {
  const cpu = await inOwnProcess<EdgeCpu>({ mode: 'cpu', keys, rounds: IN_PROCESS_ROUNDS, validates: VALIDATES_PER_BATCH, activates: ACTIVATES_PER_BATCH });
  const µs = (values: number[]) => `${medianOf(values).toFixed(0)} µs (rounds ${values.map((v) => v.toFixed(0)).join(', ')})`;
  const ratios = (a: number[], b: number[]) => a.map((value, i) => value / b[i]!);
  console.log(`edge handler CPU per validate:            ${µs(cpu.validates)}`);
  console.log(`raw GetItem CPU, same item:               ${µs(cpu.getItems)}`);
  console.log(`GetItem CPU through the service's client: ${µs(cpu.serviceGetItems)}`);
  console.log(`edge handler CPU per activate:            ${µs(cpu.activates)}`);
  console.log(`raw TransactWriteItems CPU, its shape:    ${µs(cpu.transactions)}`);
  const verdict = judgeRatio('validate / raw GetItem, CPU in process', ratios(cpu.validates, cpu.getItems), { atMost: TARGETS.handlerCpu });
  console.log(`validate / GetItem through the service's client (what the handler adds to its read; for information): ${medianOf(ratios(cpu.validates, cpu.serviceGetItems)).toFixed(2)}`);
  console.log(`activate / raw TransactWriteItems, CPU in process (for information): ${medianOf(ratios(cpu.activates, cpu.transactions)).toFixed(2)}\n`);
  return verdict;
}

/** DynamoDB requests per operation, counted by a middleware on a fresh edge handler's own clients (direct and ElectroDB's). */
async function requestsPerOperation(keys: string[], slug: string, bundleKey: string) {
  const deps = await createLoadedDeps(loadConfig(process.env, FUNCTION_CONFIG_SECTIONS.edge), 'edge');
  let requests = 0;
  for (const client of [deps.clients.table, deps.clients.documents]) {
    client.middlewareStack.add((next) => (args) => (requests++, next(args)), { step: 'initialize', name: 'countRequests' });
  }
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
  // A bundle's key named with an included product: the bundle and its products come from the cached catalog.
  const bundleValidate = { license_key: bundleKey, product_slug: slug };
  await count('validate bundle key (cold)', edgeEvent('POST', '/v1/licenses/validate', { body: bundleValidate }), 'any');
  await count('validate bundle key', edgeEvent('POST', '/v1/licenses/validate', { body: bundleValidate }), 'exactly 1');
  // Two rate-limit writes (the key's bucket and the address's), the license read, the transaction.
  await count('activate (new domain)', edgeEvent('POST', '/v1/licenses/activate', { body: { license_key: key, domain: `count-${Date.now()}.example.com` } }), '≤ 4');
  const updateQuery = { slug, license_key: key, version: '0.9' };
  await count('update-check (cold)', edgeEvent('GET', '/v1/wp/update-check', { query: updateQuery }), 'any');
  // The license and the product item, read in parallel; the releases stay cached.
  await count('update-check (warm)', edgeEvent('GET', '/v1/wp/update-check', { query: updateQuery }), '≤ 2');
  // A bundle's key for an included product: its coverage comes from the cached catalog, so no request beyond any key's.
  const bundleUpdateQuery = { slug, license_key: bundleKey, version: '0.9' };
  await count('update-check bundle key (cold)', edgeEvent('GET', '/v1/wp/update-check', { query: bundleUpdateQuery }), 'any');
  await count('update-check bundle key', edgeEvent('GET', '/v1/wp/update-check', { query: bundleUpdateQuery }), '≤ 2');
}

async function main() {
  printLoad('start');
  // Limits scaled far up: activate pays for its rate-limit writes, but one address at bench rates is never refused.
  const stack = await startLocalStack({ port: 0, dataDir: ':memory:', env: { EXPIRY_SWEEP_INTERVAL_MS: '0', RATE_LIMIT_SCALE: '1000000' } });
  const verdicts: Verdict[] = [];
  try {
    const { keys, slug, bundleKey } = await seedTenant(stack.url, { licenses: LICENSES, seats: 1_000_000, bundle: true });
    console.log(`loaded ${keys.length} licenses; ${CONNECTIONS} connections, ${DURATION_SECONDS} s per HTTP run\n`);
    const tableName = process.env.TABLE_NAME!;
    const data = (await createLoadedDeps(loadConfig(), 'edge')).data;
    const floor = await activationTransactions(tableName, keys);

    verdicts.push(await inProcess(keys));

    // Both paths end in the same JVM: warm its JIT on both before anything is measured.
    await validateOverHttp(stack.url, keys, WARM_UP_SECONDS);
    await rawGetItem(data, tableName, keys, WARM_UP_SECONDS);
    const { results: [validates, getItems], retaken } = await alternateAtSteadySpeed(ROUNDS, machineStayedAtOwnSpeed, () => validateOverHttp(stack.url, keys), () => rawGetItem(data, tableName, keys));
    console.log(`validate rounds run again because a core slowed during them: ${retaken}`);
    const perRound = (micros: number[]) => micros.map((v) => `${v.toFixed(0)} µs`).join(', ');
    console.log(`validate and raw GetItem req/s, per round: ${validates.map((v, i) => `${v.rps.toFixed(0)}/${getItems[i]!.rps.toFixed(0)}`).join(', ')}`);
    console.log(`service CPU per validate over HTTP, per round: ${perRound(validates.map((v) => v.serviceCpuMicros))}`);
    console.log(`load generator CPU per validate (what raw GetItem's side does not pay), per round: ${perRound(validates.map((v) => v.loadCpuMicros))}`);
    print(median(validates));
    print(median(getItems));
    verdicts.push(judgeRatio('validate / raw GetItem, over HTTP', validates.map((v, i) => v.rps / getItems[i]!.rps), { atLeast: TARGETS.validateHttp }));

    const activate = () => loadFromAnotherProcess('activate (HTTP)', { url: `${stack.url}/v1/licenses/activate`, duration: DURATION_SECONDS, activateKeys: keys });
    const activateRounds = await alternateAfterWarmUp(ROUNDS, machineStayedAtOwnSpeed, activate, () => rawActivationTransaction(floor));
    const [activates, transactions] = activateRounds.results;
    console.log(`activate rounds run again because a core slowed during them: ${activateRounds.retaken}`);
    print(median(activates));
    print(median(transactions));
    verdicts.push(judgeRatio('activate / raw TransactWriteItems, over HTTP', activates.map((a, i) => a.rps / transactions[i]!.rps), { atLeast: TARGETS.activateHttp }));

    const bare = print(await bareServer());
    console.log(`validate / bare HTTP: ${(median(validates).rps / bare.rps).toFixed(2)}\n`);
    floor.client.destroy();
    await requestsPerOperation(keys, slug, bundleKey!);
  } finally {
    await stack.stop();
    printLoad('end');
  }
  process.exitCode = exitCodeOf(verdicts);
}

await main();
