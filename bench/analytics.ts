/**
 * Usage-event benchmark: `node --import tsx bench/analytics.ts` (~2 min). Starts its own local stack in memory,
 * loads a product and licenses, then drives `POST /public/v1/events` and `POST /public/v1/licenses/validate` (same
 * public key, same product, valid license keys) over HTTP from a load generator in another process, alternating
 * runs, and compares their median throughputs: accepting an event must cost about what a validate costs (issue 13:
 * events/s ≥ 0.8 × validates/s). Events are queued and written by the usage event writer, which runs in this
 * process too (in AWS it is a function of its own): its work during an events run counts against the events, and
 * the queue is drained after each events run, before the next validate run. The service's CPU per request is read
 * for both, and once the queue is empty the events' daily counts are checked against what was accepted.
 * Finally a fresh public handler (as a new container) sends single events and a validate through a metered client
 * (bench/capacity/accounting.ts, as bench/write-units.ts), and the writer writes batches of queued events through
 * another: DynamoDB requests, write requests, read and write units per event, against the target of at most 2
 * writes per event. Exits non-zero when a target is missed.
 */
import { createPublicDeps, createPublicHandler } from '../functions/public/app.js';
import { startLocalStack } from '../infra/local/stack.js';
import { readDailyCounts } from '../shared/insights/analytics/daily-counts.js';
import { dayOf } from '../shared/insights/analytics/days.js';
import type { UsageMessage } from '../shared/insights/analytics/usage-message.js';
import { writeUsage } from '../shared/insights/analytics/usage-writer.js';
import { FUNCTION_CONFIG_SECTIONS, loadConfig } from '../shared/platform/config.js';
import type { HttpEvent, HttpResult } from '../shared/platform/http/types.js';
import { RATE_LIMITS } from '../shared/platform/rate-limits/limits.js';
import { newId } from '../shared/platform/ids.js';
import { createLoadedDeps } from '../shared/platform/runtime.js';
import { computed, meterCapacity, type Units } from './capacity/accounting.js';
import { edgeEvent, seedTenant } from './support/fixtures.js';
import { loadFromAnotherProcess, median, print, type LoadResult } from './support/load-process.js';

const DURATION_SECONDS = 5;
const WARM_UP_SECONDS = 4;
/** Validate and events alternate this many times; each reports its median run (single runs vary by ±10% here). */
const ROUNDS = 5;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const LICENSES = 50;
/** Events accepted per second against validates per second in the same run; under it, the bench fails. */
const RATIO_TARGET = 0.8;
/** DynamoDB writes per accepted event (its share of the writer's batch writes and count bumps); over it, the bench fails. */
const MAX_WRITES_PER_EVENT = 2;
/** Batch sizes the writer is metered at: a full batch (a busy queue), a small one, a lone event (a quiet queue). */
const WRITER_BATCHES = [100, 10, 1];
/**
 * Every bucket holds 60 × this many tokens and refills at this many a second: the load (one public key, one
 * address) is never refused, but the limiter still takes a token on every request, so its cost is measured.
 */
const RATE_LIMIT_SCALE = 1_000_000;
/** A plugin's few kinds of events: each name is one daily count item, bumped by every event of that name. */
const EVENT_NAMES = ['plugin_loaded', 'settings_saved', 'export_run', 'import_run', 'block_inserted'];
/** Properties of a typical event: the plugin's environment (about 100 bytes). */
const PROPERTIES = { version: '1.0.0', wp_version: '6.6.2', php_version: '8.2.12', locale: 'en_US', multisite: false };
/** A caller of its own for the metered calls, so their buckets are not the load's. */
const SOURCE_IP = '198.51.100.13';

type Handler = (e: HttpEvent, c: unknown) => Promise<HttpResult>;

/**
 * DynamoDB requests and units of single calls through a fresh public handler, as a new container would make them.
 * An accepted event reads the public key's mapping and sends one SQS message (not metered here): it writes nothing.
 */
async function unitsPerCall(publicKey: string, keys: string[]) {
  const deps = createPublicDeps(loadConfig(process.env, FUNCTION_CONFIG_SECTIONS.public));
  const meter = meterCapacity(deps.clients, { endpoint: process.env.DYNAMODB_ENDPOINT!, tableName: process.env.TABLE_NAME! });
  const handler = createPublicHandler(deps) as unknown as Handler;
  const call = (path: string, body: unknown) => meter.measure(async () => ({ statusCode: (await handler(edgeEvent('POST', path, { body, sourceIp: SOURCE_IP }), {})).statusCode }));
  const event = (body: Record<string, unknown>) => call('/public/v1/events', { public_key: publicKey, event: 'plugin_loaded', ...body });
  // The product by id is cached per container: filled first, as in a warm one.
  await call('/public/v1/licenses/validate', { public_key: publicKey, license_key: keys[0] });
  const rows = [
    ['validate', await call('/public/v1/licenses/validate', { public_key: publicKey, license_key: keys[1] })],
    ['event + license_key', await event({ license_key: keys[2], domain: 'units.example', properties: PROPERTIES })],
    ['event, no license_key', await event({ properties: PROPERTIES })],
  ] as const;
  meter.stop();
  return rows;
}

/** Properties near the 8 KB limit: the event item grows by a write unit per KB. */
const LARGE_PROPERTIES = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`field_${String(i).padStart(2, '0')}`, 'x'.repeat(100)]));

/**
 * What the usage event writer writes for batches of queued events (as the public route queues them: each names a
 * license of the product and one of the event names), through a metered client of a fresh writer.
 */
async function unitsPerBatch(productId: string, keys: string[]): Promise<[name: string, events: number, units: Units][]> {
  const deps = await createLoadedDeps(loadConfig(), 'usageWriter');
  const meter = meterCapacity(deps.clients, { endpoint: process.env.DYNAMODB_ENDPOINT!, tableName: process.env.TABLE_NAME! });
  const batchOf = (size: number, properties: Record<string, unknown>) =>
    Array.from({ length: size }, (_, i) => {
      const message: UsageMessage = {
        kind: 'event', eventId: newId('uev'), productId, event: EVENT_NAMES[i % EVENT_NAMES.length]!, properties, licenseKey: keys[i % keys.length], domain: 'units.example',
        receivedAt: new Date().toISOString(),
      };
      return { messageId: `m${i}`, body: JSON.stringify(message), receiveCount: 1 };
    });
  const write = async (size: number, properties: Record<string, unknown>) =>
    meter.measure(async () => ({ failed: (await writeUsage(deps, batchOf(size, properties))).length }));
  const rows: [string, number, Units][] = [];
  for (const size of WRITER_BATCHES) rows.push([`writer, batch of ${size}`, size, await write(size, PROPERTIES)]);
  rows.push(['writer, 1 event of 7 KB', 1, await write(1, LARGE_PROPERTIES)]);
  meter.stop();
  return rows;
}

/** Waits until the writer has taken every queued event (GET /_local/usage-queue). */
async function drained(baseUrl: string): Promise<void> {
  for (;;) {
    const queue = (await (await fetch(`${baseUrl}/_local/usage-queue`)).json()) as { messages: number; deadLetters: unknown[] };
    if (queue.deadLetters.length > 0) throw new Error(`${queue.deadLetters.length} usage message(s) in the dead-letter queue`);
    if (queue.messages === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function main() {
  const stack = await startLocalStack({
    port: 0,
    dataDir: ':memory:',
    env: { EXPIRY_SWEEP_INTERVAL_MS: '0', RATE_LIMIT_SCALE: String(RATE_LIMIT_SCALE) },
  });
  let failed = false;
  try {
    const { keys, productId, publicKey } = await seedTenant(stack.url, { licenses: LICENSES, seats: 10 });
    const { capacity, refillPerSecond } = RATE_LIMITS.analytics;
    console.log(`loaded ${keys.length} licenses; ${CONNECTIONS} connections, ${DURATION_SECONDS} s per run`);
    console.log(
      `RATE_LIMIT_SCALE=${RATE_LIMIT_SCALE}: the analytics bucket per (public key, address) holds ${capacity * RATE_LIMIT_SCALE} tokens and refills ` +
        `${refillPerSecond * RATE_LIMIT_SCALE}/s, so this load from one address is never refused; the limiter still runs on every request\n`,
    );

    const validateBodies = keys.map((key) => JSON.stringify({ public_key: publicKey, license_key: key }));
    // Every event names a valid license of the product (the heavier case: its license is read too) and one of a few event names.
    const eventBodies = keys.map((key, i) => JSON.stringify({ public_key: publicKey, license_key: key, event: EVENT_NAMES[i % EVENT_NAMES.length], properties: PROPERTIES }));
    const validate = (seconds = DURATION_SECONDS) =>
      loadFromAnotherProcess('validate (HTTP)', { url: `${stack.url}/public/v1/licenses/validate`, connections: CONNECTIONS, duration: seconds, bodies: validateBodies });
    // Drained after each run, so that the writer's backlog does not run during the next validate run.
    const events = async (seconds = DURATION_SECONDS) => {
      const run = await loadFromAnotherProcess('events (HTTP)', { url: `${stack.url}/public/v1/events`, connections: CONNECTIONS, duration: seconds, bodies: eventBodies });
      const start = Date.now();
      await drained(stack.url);
      console.log(`  usage queue drained ${Date.now() - start} ms after the run`);
      return run;
    };

    const firstDay = dayOf(new Date());
    // Both paths end in the same JVM and the same handler: warm both before anything is measured.
    await validate(WARM_UP_SECONDS);
    const eventRuns: LoadResult[] = [await events(WARM_UP_SECONDS)];
    const validateRuns: LoadResult[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      validateRuns.push(await validate());
      eventRuns.push(await events());
    }
    const measured = eventRuns.slice(1);
    console.log(`events / validate per round: ${measured.map((e, i) => (e.rps / validateRuns[i]!.rps).toFixed(2)).join(', ')}`);
    console.log(`service CPU per validate per round: ${validateRuns.map((v) => `${v.serviceCpuMicros.toFixed(0)} µs`).join(', ')}`);
    console.log(`service CPU per event per round:    ${measured.map((e) => `${e.serviceCpuMicros.toFixed(0)} µs`).join(', ')}`);
    const v = print(median(validateRuns));
    const e = print(median(measured));
    const cpuOf = (runs: LoadResult[]) => runs.map((r) => r.serviceCpuMicros).sort((a, b) => a - b)[Math.floor(runs.length / 2)]!;
    const ratio = e.rps / v.rps;
    const refused = [...validateRuns, ...eventRuns].reduce((n, r) => n + r.failures, 0);
    console.log(`\nevents / validate: ${ratio.toFixed(2)}  (medians of ${ROUNDS} alternating runs; target ≥ ${RATIO_TARGET})`);
    console.log(`service CPU: ${cpuOf(measured).toFixed(0)} µs per event, ${cpuOf(validateRuns).toFixed(0)} µs per validate  (medians: gateway, handler, SDK; the load generator runs elsewhere)`);
    if (ratio < RATIO_TARGET) failed = true;
    if (refused > 0) {
      console.error(`${refused} request(s) answered other than 2xx: the figures above are not of accepted requests`);
      failed = true;
    }

    // Every accepted event was written (the queue is empty): the daily counts add up to the 202s, plus at most the requests in flight when a run ended.
    const deps = await createLoadedDeps(loadConfig(), 'public');
    const counted = (await readDailyCounts(deps, productId, firstDay, dayOf(new Date())))
      .filter((c) => c.metric === 'event')
      .reduce((sum, c) => sum + c.count, 0);
    const accepted = eventRuns.reduce((n, r) => n + r.requests - r.failures, 0);
    const countsAgree = counted >= accepted && counted <= accepted + eventRuns.length * CONNECTIONS;
    console.log(`daily counts: ${counted} events counted, ${accepted} accepted (202) by the load generator${countsAgree ? '' : '  MISMATCH'}`);
    if (!countsAgree) failed = true;

    console.log(`\n${'request (warm container)'.padEnd(28)} status  requests  writes  read units  write units: computed  Local`);
    for (const [name, units] of await unitsPerCall(publicKey, keys)) {
      const unmeasured = units.unmeasured.length ? `  NOT MEASURED: ${units.unmeasured.join(', ')}` : '';
      console.log(
        `${name.padEnd(28)} ${String(units.statusCode).padStart(6)}  ${String(units.requests).padStart(8)}  ${String(units.writeRequests).padStart(6)}  ${units.read.toFixed(1).padStart(10)}  ${String(computed(units)).padStart(21)}  ${String(units.write).padStart(5)}${unmeasured}`,
      );
      if (name.startsWith('event') && (units.statusCode !== 202 || units.writeRequests > 0)) {
        console.error(`${name}: status ${units.statusCode}, ${units.writeRequests} write(s) while the caller waits: target 202 and none (the writer writes)`);
        failed = true;
      }
    }

    console.log(`\n${'writer (per event)'.padEnd(28)} events  requests  writes  read units  write units: computed  Local  failed`);
    for (const [name, size, units] of await unitsPerBatch(productId, keys)) {
      const per = (n: number) => (n / size).toFixed(2);
      const { failed: unwritten } = units as Units & { failed: number };
      console.log(
        `${name.padEnd(28)} ${String(size).padStart(6)}  ${per(units.requests).padStart(8)}  ${per(units.writeRequests).padStart(6)}  ${per(units.read).padStart(10)}  ${per(computed(units)).padStart(21)}  ${per(units.write).padStart(5)}  ${unwritten}`,
      );
      // A typical event is under 1 KB, so its write units and writes agree; a 7 KB one pays a unit per KB.
      const typical = !name.includes('KB');
      const over = units.writeRequests / size > MAX_WRITES_PER_EVENT || (typical && Math.max(units.write, computed(units)) / size > MAX_WRITES_PER_EVENT);
      if (unwritten > 0 || over) {
        console.error(`${name}: ${unwritten} unwritten, ${per(units.writeRequests)} write(s) and ${per(Math.max(units.write, computed(units)))} write unit(s) per event: target ≤ ${MAX_WRITES_PER_EVENT}`);
        failed = true;
      }
    }
    console.log(
      `writes per event: the event item (in a BatchWriteItem of 25) and its share of the batch's count bumps (one UpdateItem ADD n per event name); ` +
        `target ≤ ${MAX_WRITES_PER_EVENT} writes (and write units, under 1 KB of properties)`,
    );
  } finally {
    await stack.stop();
  }
  if (failed) process.exitCode = 1;
}

await main();
