/**
 * Where the service process's CPU goes over HTTP: `npx tsx bench/profile/http.ts` (~1 min). Starts a local stack in
 * memory in this process, seeds licenses, warms validate up over HTTP from a load generator in another process (as
 * bench/edge.ts does), then profiles this process (V8's sampling profiler, through `node:inspector`) while the load
 * generator sends validates for `PROFILE_SECONDS` (default 8), and prints the areas and busiest functions
 * (bench/profile/summary.ts), with the process's CPU per validate. Before it, the same process idle for as long: what
 * the local stack's pollers cost with no request at all. The profile stays in `PROFILE_DIR` (default: a temporary
 * directory) for Chrome DevTools or speedscope.
 */
import { writeFileSync, mkdtempSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalStack } from '../../infra/local/stack.js';
import { NONCE, seedTenant } from '../support/fixtures.js';
import { loadFromAnotherProcess } from '../support/load-process.js';
import { printLoad } from '../support/rounds.js';
import { printSummary, summarize } from './summary.js';

const SECONDS = Number(process.env.PROFILE_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

printLoad('start');
const stack = await startLocalStack({ port: 0, dataDir: ':memory:', env: { EXPIRY_SWEEP_INTERVAL_MS: '0', RATE_LIMIT_SCALE: '1000000' } });
try {
  const { keys } = await seedTenant(stack.url, { licenses: 20, seats: 1_000_000 });
  const validate = (duration: number) =>
    loadFromAnotherProcess('validate (HTTP)', {
      url: `${stack.url}/v1/licenses/validate`,
      connections: CONNECTIONS,
      duration,
      bodies: keys.map((key) => JSON.stringify({ license_key: key })),
      headers: NONCE,
    });
  await validate(5);
  const idleBefore = process.cpuUsage();
  await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
  const idle = process.cpuUsage(idleBefore);
  console.log(`idle: ${((idle.user + idle.system) / 1000 / SECONDS).toFixed(1)} ms of CPU per second with no request (the stack's pollers)`);

  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  const run = await validate(SECONDS);
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();
  console.log(`${run.requests} validates, ${run.rps.toFixed(0)} req/s, this process's CPU per validate ${run.serviceCpuMicros.toFixed(0)} µs (profiler on)`);

  const file = join(process.env.PROFILE_DIR ?? mkdtempSync(join(tmpdir(), 'http-profile-')), 'validate-http.cpuprofile');
  writeFileSync(file, JSON.stringify(profile));
  printSummary(`validate over HTTP (${SECONDS} s)`, summarize(file, undefined, 25));
  console.log(`profile: ${file}`);
} finally {
  await stack.stop();
  printLoad('end');
}
