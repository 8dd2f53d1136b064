import { startLocalStack } from '../infra/local/stack.js';
import { loadConfig } from '../shared/platform/config.js';
import { importFileKey, newUploadId, putImportFile } from '../shared/portability/imports/import-files.js';
import { createImportJob, readImportJob } from '../shared/portability/imports/import-jobs.js';
import { runImport } from '../shared/portability/imports/run-import.js';
import { createLoadedDeps } from '../shared/platform/runtime.js';
import { createStorageClient } from '../shared/platform/s3/storage-client.js';
import { verifyAddress } from './support/verify-address.js';
const N = Number(process.env.N ?? 2000);
function csvOf(count: number, run: string): string {
  const rows = ['license_key,customer_email,customer_name,status,seats,expires_at,domains'];
  for (let i = 0; i < count; i++) {
    const sites = Array.from({ length: 3 }, (_, n) => `site${n}-${i}.${run}.example.org`).join(';');
    rows.push(`BENCH-${run}-${String(i).padStart(6, '0')}-KEPT,buyer${i}.${run}@example.com,Buyer ${i},active,3,2099-01-01T00:00:00Z,${sites}`);
  }
  return `${rows.join('\n')}\n`;
}
const stack = await startLocalStack({ port: 0, dataDir: ':memory:', env: { EXPIRY_SWEEP_INTERVAL_MS: '0', RATE_LIMIT_SCALE: '1000000' } });
const headers = { 'content-type': 'application/json', origin: stack.url };
const register = await fetch(`${stack.url}/api/auth/register`, { method: 'POST', headers, body: JSON.stringify({ email: 'p@example.com', password: 'bench password' }) });
const cookie = register.headers.getSetCookie()[0]!.split(';')[0]!;
await verifyAddress(stack.url, 'p@example.com');
const authed = { ...headers, cookie };
const productId = ((await (await fetch(`${stack.url}/api/products`, { method: 'POST', headers: authed, body: JSON.stringify({ name: 'P', productType: 'plugin' }) })).json()) as { id: string }).id;
const config = loadConfig();
const deps = await createLoadedDeps(config, 'importWorker');
const workerDeps = { ...deps, clients: { ...deps.clients, s3: createStorageClient(config) }, queue: { send: async () => undefined } };
const me = (await (await fetch(`${stack.url}/api/auth/me`, { headers: authed })).json()) as { user: { id: string } };
const fileKey = importFileKey(me.user.id, newUploadId());
const text = csvOf(N, 'p');
await putImportFile(workerDeps, fileKey, Buffer.from(text), 'text/csv');
const created = await createImportJob(deps, me.user.id, { productId, format: 'csv', dryRun: false, fileKey, fileSize: text.length });
import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
const javaPid = execSync(`pgrep -n -f '^java .*DynamoDBLocal'`).toString().trim();
const javaCpu = () => { const f = readFileSync(`/proc/${javaPid}/stat`, 'utf8').split(') ')[1]!.split(' '); return (Number(f[11]) + Number(f[12])) / 100; };
const j0 = javaCpu();
const cpu0 = process.cpuUsage();
const t0 = performance.now();
await runImport(workerDeps, created.importId, () => Number.MAX_SAFE_INTEGER, 0);
const secs = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
const done = await readImportJob(deps, created.importId);
console.log(`${N}: ${done?.status} ${done?.licenses} in ${secs.toFixed(1)} s; node cpu ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s; java cpu ${(javaCpu() - j0).toFixed(1)} s`);
await stack.stop();
