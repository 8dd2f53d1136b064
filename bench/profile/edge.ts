/**
 * Where validate's and activate's CPU goes: `npx tsx bench/profile/edge.ts` (~2 min). Starts a local stack in memory,
 * seeds licenses, then runs 3,000 validates, and in another process 3,000 activates, of the edge handler in a process
 * of its own under `node --cpu-prof`, one call at a time after a warm-up (bench/support/edge-process.ts), and prints
 * the areas and busiest functions of the measured calls' samples (bench/profile/summary.ts). The profiles stay in
 * `PROFILE_DIR` (default: a temporary directory) for Chrome DevTools or speedscope.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLocalStack } from '../../infra/local/stack.js';
import type { EdgeProcessOptions, ProfiledWindow } from '../support/edge-process.js';
import { seedTenant } from '../support/fixtures.js';
import { printLoad } from '../support/rounds.js';
import { printSummary, summarize } from './summary.js';

const CALLS = Number(process.env.PROFILE_CALLS ?? 3_000);
const EDGE_PROCESS = fileURLToPath(new URL('../support/edge-process.ts', import.meta.url));

printLoad('start');
const stack = await startLocalStack({ port: 0, dataDir: ':memory:', env: { EXPIRY_SWEEP_INTERVAL_MS: '0', RATE_LIMIT_SCALE: '1000000' } });
try {
  const { keys } = await seedTenant(stack.url, { licenses: 20, seats: 1_000_000 });
  const profileDir = process.env.PROFILE_DIR ?? mkdtempSync(join(tmpdir(), 'edge-profile-'));
  for (const operation of ['validate', 'activate'] as const) {
    const options: EdgeProcessOptions = { mode: 'profile', keys, calls: CALLS, operation };
    const dir = join(profileDir, operation);
    const child = spawnSync(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--import', 'tsx', EDGE_PROCESS, JSON.stringify(options)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    if (child.status !== 0) throw new Error(`edge process exited with ${child.status}`);
    // Node writes one profile per thread (`CPU.<date>.<time>.<pid>.<thread>.<n>.cpuprofile`); tsx's loader has a thread of its own.
    const file = join(dir, readdirSync(dir).find((name) => /\.0\.\d+\.cpuprofile$/.test(name))!);
    printSummary(`${operation} (${CALLS} calls)`, summarize(file, JSON.parse(child.stdout) as ProfiledWindow));
    console.log(`profile: ${file}`);
  }
} finally {
  await stack.stop();
  printLoad('end');
}
