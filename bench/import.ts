/**
 * Import benchmark: `npx tsx bench/import.ts` (a few minutes). Starts its own local stack in memory and:
 * 1. imports 10,000 licenses, each of its own customer with 3 active sites, over HTTP, through the queue and the
 *    import worker, timing `POST /api/imports` to `status: done`: the target is 2 minutes (issue 47);
 * 2. runs the worker's code as dry runs of 10,000 and of 40,000 such licenses, sampling this process's heap, to show
 *    that the worker's memory does not follow the file's size (the file is read as it streams, into prepared rows
 *    read back a chunk at a time; issue 44);
 * 3. imports 1,000 more through the worker's own code on a metered table client (bench/capacity/accounting.ts), and
 *    prints the DynamoDB requests and the read and write units per license, as DynamoDB Local reports them and as
 *    computed from the items' sizes (DynamoDB's published rules; Local doubles index writes in transactions).
 * Exits non-zero when the 10,000 take longer than the target or the memory grows with the file. It prints the
 * machine's load around the timing: the import is CPU-bound (DynamoDB Local's one SQLite thread, its request threads
 * and this process), so on a shared machine its time follows the load.
 */
import { cpus, loadavg } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { startLocalStack } from '../infra/local/stack.js';
import { loadConfig } from '../shared/platform/config.js';
import { importFileKey, newUploadId, putImportFile } from '../shared/portability/imports/import-files.js';
import { createImportJob, readImportJob } from '../shared/portability/imports/import-jobs.js';
import { runImport } from '../shared/portability/imports/run-import.js';
import { createLoadedDeps } from '../shared/platform/runtime.js';
import { createStorageClient } from '../shared/platform/s3/storage-client.js';
import { computed, meterCapacity } from './capacity/accounting.js';
import { verifyAddress } from './support/verify-address.js';

const LICENSES = 10_000;
const SITES = 3;
const TARGET_SECONDS = 120;
const MEMORY_SIZES = [10_000, 40_000];
/** How much more the larger file's run may hold on the heap than the smaller's, for the memory to count as flat. */
const FLAT_MARGIN_MB = 8;
/** How often the live heap is sampled during a run (a full collection each time, so garbage not yet collected does not count). */
const SAMPLE_MS = 1000;
const METERED_LICENSES = 1_000;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Our CSV: every row a license of its own customer, active on three sites, with an expiry (so its expiry item too). */
function csvOf(count: number, run: string): string {
  const rows = ['license_key,customer_email,customer_name,status,seats,expires_at,domains'];
  for (let i = 0; i < count; i++) {
    const sites = Array.from({ length: SITES }, (_, n) => `site${n}-${i}.${run}.example.org`).join(';');
    rows.push(`BENCH-${run}-${String(i).padStart(6, '0')}-KEPT,buyer${i}.${run}@example.com,Buyer ${i},active,${SITES},2099-01-01T00:00:00Z,${sites}`);
  }
  return `${rows.join('\n')}\n`;
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

async function main() {
  const stack = await startLocalStack({ port: 0, dataDir: ':memory:', env: { EXPIRY_SWEEP_INTERVAL_MS: '0', RATE_LIMIT_SCALE: '1000000' } });
  let failed = false;
  try {
    const headers = { 'content-type': 'application/json', origin: stack.url };
    const register = await fetch(`${stack.url}/api/auth/register`, { method: 'POST', headers, body: JSON.stringify({ email: 'bench-import@example.com', password: 'bench password' }) });
    const cookie = register.headers.getSetCookie()[0]!.split(';')[0]!;
    await verifyAddress(stack.url, 'bench-import@example.com');
    const authed = { ...headers, cookie };
    const newProduct = async (name: string) =>
      ((await (await fetch(`${stack.url}/api/products`, { method: 'POST', headers: authed, body: JSON.stringify({ name, productType: 'plugin' }) })).json()) as { id: string }).id;
    const productId = await newProduct('Bench');

    // 1. Over HTTP, through the queue and the worker.
    const file = csvOf(LICENSES, 'http');
    const load = () => `load average ${loadavg().map((n) => n.toFixed(2)).join(', ')} on ${cpus().length} cores`;
    console.log(`before: ${load()}`);
    const started = performance.now();
    const post = await fetch(`${stack.url}/api/imports?productId=${productId}&format=csv`, { method: 'POST', headers: { ...authed, 'content-type': 'text/csv' }, body: file });
    if (post.status !== 202) throw new Error(`POST /api/imports: ${post.status} ${await post.text()}`);
    const { id } = (await post.json()) as { id: string };
    let job: { status: string; counts: Record<string, number>; errorCount: number; processedRows: number };
    for (;;) {
      job = (await (await fetch(`${stack.url}/api/imports/${id}`, { headers: authed })).json()) as typeof job;
      if (job.status === 'done' || job.status === 'failed') break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const seconds = (performance.now() - started) / 1000;
    console.log(`${LICENSES} licenses with ${SITES} sites each (${mb(file.length)} MB of CSV) over HTTP: ${job.status} in ${seconds.toFixed(1)} s`, job.counts, `errors ${job.errorCount}`);
    console.log(`  ${(LICENSES / seconds).toFixed(0)} licenses a second (target: ${LICENSES} within ${TARGET_SECONDS} s); after: ${load()}`);
    if (job.status !== 'done' || job.counts.licenses !== LICENSES || job.counts.activations !== LICENSES * SITES || seconds > TARGET_SECONDS) failed = true;

    const config = loadConfig();
    const deps = await createLoadedDeps(config, 'importWorker');
    const workerDeps = { ...deps, clients: { ...deps.clients, s3: createStorageClient(config) }, queue: { send: async () => undefined } };
    const me = (await (await fetch(`${stack.url}/api/auth/me`, { headers: authed })).json()) as { user: { id: string } };
    const tenantId = me.user.id;
    /** A queued import of `count` licenses into a new product; the file is stored and let go before the import runs. */
    const queued = async (count: number, run: string, dryRun: boolean) => {
      const fileKey = importFileKey(tenantId, newUploadId());
      const text = csvOf(count, run);
      await putImportFile(workerDeps, fileKey, Buffer.from(text), 'text/csv');
      const created = await createImportJob(deps, tenantId, { productId: await newProduct(`Bench ${run}`), format: 'csv', dryRun, fileKey, fileSize: text.length });
      return { importId: created.importId, fileSize: text.length };
    };

    // 2. The worker's memory: the live heap's peak above where it stood, sampled while dry runs of two sizes go through.
    const peaks: number[] = [];
    for (const count of MEMORY_SIZES) {
      const { importId, fileSize } = await queued(count, `mem${count}`, true);
      gc();
      const base = process.memoryUsage().heapUsed;
      let peak = base;
      const sampler = setInterval(() => {
        gc();
        peak = Math.max(peak, process.memoryUsage().heapUsed);
      }, SAMPLE_MS);
      const runStarted = performance.now();
      await runImport(workerDeps, importId, () => Number.MAX_SAFE_INTEGER, 0);
      clearInterval(sampler);
      const done = await readImportJob(deps, importId);
      peaks.push(peak - base);
      console.log(
        `\ndry run of ${count} licenses (${mb(fileSize)} MB of CSV, ${done?.status}, ${done?.licenses} licenses) in ${((performance.now() - runStarted) / 1000).toFixed(1)} s: ` +
          `the live heap's peak ${mb(peak - base)} MB above where it stood`,
      );
    }
    const flat = peaks[1]! - peaks[0]! <= FLAT_MARGIN_MB * 1024 * 1024;
    console.log(`  ${MEMORY_SIZES[1]! / MEMORY_SIZES[0]!} times the file, ${mb(peaks[1]! - peaks[0]!)} MB more at the peak: ${flat ? 'flat' : 'NOT flat'} (margin ${FLAT_MARGIN_MB} MB)`);
    if (!flat) failed = true;

    // 3. Metered: the worker's code on a table client that counts every request's units.
    const meter = meterCapacity(deps.clients, { endpoint: process.env.DYNAMODB_ENDPOINT!, tableName: process.env.TABLE_NAME! });
    const { importId } = await queued(METERED_LICENSES, 'meter', false);
    const units = await meter.measure(async () => {
      await runImport(workerDeps, importId, () => Number.MAX_SAFE_INTEGER, 0);
      return {};
    });
    const done = await readImportJob(deps, importId);
    meter.stop();
    const per = (n: number) => (n / METERED_LICENSES).toFixed(2);
    console.log(`\n${METERED_LICENSES} licenses through the worker (${done?.status}, ${done?.licenses} licenses, ${done?.customers} customers, ${done?.activations} activations), per license:`);
    console.log(`  requests ${per(units.requests)} (writes ${per(units.writeRequests)}), read units: computed ${per(units.computedRead)}, Local ${per(units.read)} (nothing for a key not found)`);
    console.log(`  write units: computed ${per(computed(units))} (${[...units.computedBy].map(([at, n]) => `${at} ${per(n)}`).join(', ')}), Local ${per(units.write)}`);
    console.log(`  each license here: the license and its ref, its expiry item, a new customer and its e-mail item, ${SITES} activations and their domain items; counters and the import's cursor once per batch`);
    console.log('  reads: its key and its e-mail, both strongly consistent and not found');
  } finally {
    await stack.stop();
  }
  if (failed) {
    console.error(`import: target missed (${LICENSES} licenses with ${SITES} sites each within ${TARGET_SECONDS} s, memory flat in the file's size)`);
    process.exitCode = 1;
  }
}

await main();
