import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort } from '../infra/local/ports.js';
import { Client } from '../test/support/client.js';
import { startFakeGitHub } from '../test/support/fake-oauth-providers.js';
import { startFakeStripe } from '../test/support/fake-stripe.js';
import { writeRows, type Probe } from './upgrade-fixture/rows.js';

/**
 * `npm run fixture:upgrade -- --from <git ref>`, when cutting a release (docs/deploy.md, "Cutting a release"): the
 * previous release's `npm start`, in a copy of `<ref>`'s files (`git archive`) with its own `npm ci`, writes an account's rows of every
 * kind into a fresh `DATA_DIR` over HTTP (scripts/upgrade-fixture/rows.ts), answers the probes, and stops; its
 * `DATA_DIR` and the answers become `test/fixtures/upgrade/`, which the current code must serve unchanged
 * (test/integration/platform/upgrade-rehearsal.test.ts, DECISIONS §21).
 */
const USAGE = 'Usage: npm run fixture:upgrade -- --from <git ref of the previous release, e.g. v1.0.0>';
const { values } = parseArgs({ options: { from: { type: 'string' } } });
if (!values.from) {
  console.error(USAGE);
  process.exit(2);
}
const ROOT = new URL('..', import.meta.url).pathname;
const FIXTURE = join(ROOT, 'test/fixtures/upgrade');
const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();

const commit = git('rev-parse', '--verify', `${values.from}^{commit}`);
const work = mkdtempSync(join(tmpdir(), 'upgrade-fixture-'));
const release = join(work, 'release');
const dataDir = join(work, 'data');
const { version } = JSON.parse(git('show', `${commit}:package.json`)) as { version: string };

/**
 * What both runs set (the rehearsal starts the current stack with the same): fixed public addresses, so that the
 * links in answers do not name a port; limits that a script's burst from one address does not reach; and the
 * schedules off, so that no job writes between the answers and the stop (or during the rehearsal).
 */
const FIXTURE_ENV = {
  PUBLIC_BASE_URL: 'http://licensing.test',
  DASHBOARD_URL: 'http://dashboard.test',
  RATE_LIMIT_SCALE: '1000',
  EXPIRY_SWEEP_INTERVAL_MS: '0',
  LEASE_EXPIRY_INTERVAL_MS: '0',
};

/** `npm start` of the release, in a process group of its own; resolves once it listens. */
async function startRelease(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn('npm', ['start'], { cwd: release, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let output = '';
  await new Promise<void>((ready, fail) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk;
      if (output.includes('listening on')) ready();
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
    child.once('exit', (code) => fail(new Error(`npm start exited (${code}) before it was ready:\n${output}`)));
  });
  return child;
}

/** Ctrl-C, as a developer stops it (the stack stops DynamoDB Local, which writes its file), then the rest of its group. */
async function stopRelease(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid!, 'SIGINT');
  await exited;
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // The group has ended with its leader.
  }
}

const stripe = await startFakeStripe();
const github = await startFakeGitHub();
let service: ChildProcess | undefined;
try {
  console.log(`Release ${version} (${commit.slice(0, 7)}): its files and npm ci in ${release}`);
  mkdirSync(release);
  execFileSync('sh', ['-c', `git archive ${commit} | tar -x -C '${release}'`], { cwd: ROOT, stdio: 'inherit' });
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: release, stdio: 'inherit' });

  const port = await freePort();
  const baseUrl = `http://localhost:${port}`;
  service = await startRelease({ ...FIXTURE_ENV, ...github.env, PORT: String(port), DATA_DIR: dataDir, STRIPE_API_URL: stripe.url });
  console.log(`Writing rows through ${baseUrl}`);
  const { apiKey, probes } = await writeRows({ baseUrl, stripeUrl: stripe.url, github });
  const withKey = Object.assign(new Client(baseUrl), { bearer: apiKey });
  const answers: (Probe & { answer: { status: number; body: unknown } })[] = [];
  for (const probe of probes) {
    const res = await (probe.auth === 'key' ? withKey : new Client(baseUrl)).request(probe.method, probe.path, { body: probe.body, origin: null });
    if (res.status >= 500) throw new Error(`${probe.name}: ${res.status} ${res.text}`);
    answers.push({ ...probe, answer: { status: res.status, body: res.body } });
  }
  await stopRelease(service);
  service = undefined;

  rmSync(FIXTURE, { recursive: true, force: true });
  cpSync(dataDir, join(FIXTURE, 'data'), { recursive: true });
  const fixture = { writtenBy: { version, commit }, env: FIXTURE_ENV, apiKey, probes: answers };
  writeFileSync(join(FIXTURE, 'answers.json'), `${JSON.stringify(fixture, null, 1)}\n`);
  console.log(`Wrote ${FIXTURE}: ${answers.length} answers of ${version} (${commit.slice(0, 7)})`);
} finally {
  if (service) await stopRelease(service).catch(() => undefined);
  await stripe.close();
  await github.close();
  rmSync(work, { recursive: true, force: true });
}
