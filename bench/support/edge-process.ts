/**
 * The edge handler as one Lambda container runs it, in a process of its own (`node --import tsx
 * bench/support/edge-process.ts '<json>'`), beside raw requests of the same work: its CPU per call is then the
 * handler's and the SDK's alone, not the local stack's (whose queue and stream pollers run in the benchmark's
 * process). The environment is the local stack's (TABLE_NAME, DYNAMODB_ENDPOINT, the local keys).
 *
 * Modes: `cpu` measures validate against raw GetItem (and against GetItem through the service's own table client)
 * and activate against raw TransactWriteItems of its shape, in alternating batches, and prints the CPU µs per call
 * of each batch as JSON; `profile` makes `calls` calls of one operation after a warm-up and prints when the measured
 * calls began and ended, in the monotonic microseconds of V8's profiles (run it under `node --cpu-prof`).
 */
import { GetItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { Context } from 'aws-lambda';
import { createEdgeHandler } from '../../functions/edge/app.js';
import { createClients } from '../../shared/platform/clients.js';
import { FUNCTION_CONFIG_SECTIONS, loadConfig } from '../../shared/platform/config.js';
import type { HttpEvent, HttpResult } from '../../shared/platform/http/types.js';
import { createLoadedDeps } from '../../shared/platform/runtime.js';
import { activationTransactions, rawClient } from './activation-floor.js';
import { edgeEvent, NONCE } from './fixtures.js';

export type EdgeProcessOptions =
  | { mode: 'cpu'; keys: string[]; rounds: number; validates: number; activates: number }
  | { mode: 'profile'; keys: string[]; calls: number; operation: 'validate' | 'activate' };

/** When the profiled calls began and ended, in the clock of V8's CPU profiles (monotonic µs). */
export type ProfiledWindow = { start: number; end: number };

/** CPU µs per call of each side, per round. */
export type EdgeCpu = { validates: number[]; getItems: number[]; serviceGetItems: number[]; activates: number[]; transactions: number[] };

/** Lambda's context as a handler sees it: with its deadline, so middy arms its early-timeout timer as in AWS. */
function lambdaContext(): Context {
  return {
    callbackWaitsForEmptyEventLoop: false, functionName: 'edge', functionVersion: '$LATEST', invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:edge',
    memoryLimitInMB: '1024', awsRequestId: 'bench', logGroupName: 'bench', logStreamName: 'bench', getRemainingTimeInMillis: () => 10_000,
    done: () => undefined, fail: () => undefined, succeed: () => undefined,
  };
}

/** CPU µs of this process per call of `call`, over `count` calls made one after another (as one Lambda serves them). */
async function cpuPerCall(count: number, call: (i: number) => Promise<unknown>): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < count; i++) await call(i);
  const cpu = process.cpuUsage(before);
  return (cpu.user + cpu.system) / count;
}

/** The calls compared: the handler's validate and activate, and the raw requests of the same work. */
async function edgeCalls(keys: string[]) {
  const config = loadConfig(process.env, FUNCTION_CONFIG_SECTIONS.edge);
  const deps = await createLoadedDeps(config, 'edge');
  const handler = createEdgeHandler(deps) as unknown as (e: HttpEvent, c: Context) => Promise<HttpResult>;
  const raw = rawClient();
  const service = createClients(config, 'edge').table;
  const floor = await activationTransactions(config.tableName, keys);
  const itemKeys = keys.map((licenseKey) => marshall(deps.data.entities.license.get({ licenseKey }).params().Key as Record<string, string>));
  const post = (path: string, body: object) => {
    const event = edgeEvent('POST', path, { body });
    return { ...event, headers: { ...event.headers, ...NONCE } };
  };
  const answered = async (event: HttpEvent) => {
    const result = await handler(event, lambdaContext());
    if (result.statusCode !== 200) throw new Error(`${event.rawPath} answered ${result.statusCode}: ${result.body}`);
  };
  const validateEvents = keys.map((key) => post('/v1/licenses/validate', { license_key: key }));
  const getItemThrough = (client: DynamoDBClient) => (i: number) =>
    client.send(new GetItemCommand({ TableName: config.tableName, Key: itemKeys[i % itemKeys.length]!, ConsistentRead: true }));
  let domain = 0;
  return {
    // A fresh event per call, as Lambda hands each invocation its own: nothing kept by event carries over.
    validate: (i: number) => answered({ ...validateEvents[i % validateEvents.length]! }),
    getItem: getItemThrough(raw),
    serviceGetItem: getItemThrough(service),
    activate: (i: number) => answered(post('/v1/licenses/activate', { license_key: keys[i % keys.length], domain: `cpu-${process.pid}-${domain++}.example.com` })),
    transaction: () => floor.client.send(new TransactWriteCommand(floor.next())),
  };
}

/** Calls of one side in a row, within a round: the sides take turns this often, so a GC or a neighbour's burst weighs on both. */
const SLICE_CALLS = 20;

/**
 * CPU µs per call of each side, per round: every round runs `perRound` calls of each side in slices of `SLICE_CALLS`,
 * the sides taking turns slice by slice (in reverse order every other slice), each side's CPU summed over its slices.
 * Whole batches side after side spread ±20–30% between rounds on a quiet machine (a major GC or a burst of the
 * JVM's lands on one side's batch); interleaved this finely, both sides share them. The first round is dropped (warm-up).
 */
async function interleavedCpu(rounds: number, perRound: number, sides: ((i: number) => Promise<unknown>)[]): Promise<number[][]> {
  const results = sides.map(() => [] as number[]);
  const slices = Math.ceil(perRound / SLICE_CALLS);
  for (let round = 0; round <= rounds; round++) {
    const totals = sides.map(() => 0);
    for (let slice = 0; slice < slices; slice++) {
      const order = sides.map((_, i) => i);
      if (slice % 2) order.reverse();
      for (const i of order) totals[i]! += (await cpuPerCall(SLICE_CALLS, (n) => sides[i]!(slice * SLICE_CALLS + n))) * SLICE_CALLS;
    }
    if (round > 0) totals.forEach((total, i) => results[i]!.push(total / (slices * SLICE_CALLS)));
  }
  return results;
}

async function measureCpu(options: Extract<EdgeProcessOptions, { mode: 'cpu' }>): Promise<EdgeCpu> {
  const calls = await edgeCalls(options.keys);
  // Warm every side (JIT, connections, the product cache) before anything is measured.
  for (const side of [calls.validate, calls.getItem, calls.serviceGetItem]) await cpuPerCall(options.validates, side);
  for (const side of [calls.activate, calls.transaction]) await cpuPerCall(options.activates, side);
  const [validates, getItems, serviceGetItems] = await interleavedCpu(options.rounds, options.validates, [calls.validate, calls.getItem, calls.serviceGetItem]);
  const [activates, transactions] = await interleavedCpu(options.rounds, options.activates, [calls.activate, calls.transaction]);
  return { validates: validates!, getItems: getItems!, serviceGetItems: serviceGetItems!, activates: activates!, transactions: transactions! };
}

async function profile(options: Extract<EdgeProcessOptions, { mode: 'profile' }>): Promise<ProfiledWindow> {
  const call = (await edgeCalls(options.keys))[options.operation];
  await cpuPerCall(Math.ceil(options.calls / 4), call);
  const start = Number(process.hrtime.bigint() / 1000n);
  await cpuPerCall(options.calls, call);
  return { start, end: Number(process.hrtime.bigint() / 1000n) };
}

const options = JSON.parse(process.argv[2]!) as EdgeProcessOptions;
process.stdout.write(JSON.stringify(options.mode === 'cpu' ? await measureCpu(options) : await profile(options)));
process.exit(0);
