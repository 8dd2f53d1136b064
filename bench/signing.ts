/**
 * Signing benchmark: `npx tsx bench/signing.ts` (~1 min). What signed answers cost validate, in one run on one
 * local stack: validate over HTTP of a product with a signing key (every answer signed) against validate of a
 * product without one (a product as made before signing keys: answered unsigned), in alternating runs, each
 * with its own licenses; then, in this process, the edge handler's CPU per validate for both, and the signing
 * step alone. Target: signed validate ≥ 0.9 of unsigned validate's throughput (medians), else exit 1.
 */
import { createPrivateKey, generateKeyPairSync, sign } from 'node:crypto';
import { createEdgeHandler } from '../functions/edge/app.js';
import { startLocalStack } from '../infra/local/stack.js';
import { loadConfig } from '../shared/config.js';
import type { HttpEvent, HttpResult } from '../shared/http/types.js';
import { ok } from '../shared/http/responses.js';
import { createDeps } from '../shared/runtime.js';
import { signatureHeaders } from '../shared/signing/http-signatures.js';
import { edgeEvent, seedTenant } from './support/fixtures.js';
import { loadFromAnotherProcess, median, print, type LoadResult } from './support/load-process.js';

const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = 3;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const LICENSES = 20;
const IN_PROCESS_CALLS = 2_000;
/** Signed validate's throughput against unsigned validate's, in the same run; under it, the bench fails. */
const TARGET = 0.9;

const validate = (name: string, url: string, keys: string[], headers?: Record<string, string>) =>
  loadFromAnotherProcess(name, { url, connections: CONNECTIONS, duration: DURATION_SECONDS, bodies: keys.map((key) => JSON.stringify({ license_key: key })), headers });

/** CPU of this process per call of the edge handler (a container of its own, warmed first). */
async function handlerCpuMicros(keys: string[], headers: Record<string, string> = {}): Promise<number> {
  const handler = createEdgeHandler(createDeps(loadConfig(), 'licensing')) as unknown as (e: HttpEvent, c: unknown) => Promise<HttpResult>;
  const event = (i: number) => {
    const base = edgeEvent('POST', '/v1/licenses/validate', { body: { license_key: keys[i % keys.length] } });
    return { ...base, headers: { ...base.headers, ...headers } };
  };
  for (let i = 0; i < 200; i++) await handler(event(i), {});
  const before = process.cpuUsage();
  for (let i = 0; i < IN_PROCESS_CALLS; i++) {
    const result = await handler(event(i), {});
    if (result.statusCode !== 200) throw new Error(`validate answered ${result.statusCode}`);
  }
  const cpu = process.cpuUsage(before);
  return (cpu.user + cpu.system) / IN_PROCESS_CALLS;
}

/** The signing step alone: digest, signature base and Ed25519 signature of a validate answer, in µs. */
function signingStepMicros(): number {
  const { privateKey } = generateKeyPairSync('ed25519');
  const key = createPrivateKey({ key: privateKey.export({ format: 'der', type: 'pkcs8' }), format: 'der', type: 'pkcs8' });
  const answer = ok({ valid: true, license: { key: 'BENCH-AAAA-BBBB-CCCC-DDDD', status: 'active', seats: 3, activatedCount: 1, expiresAt: null }, product: { id: 'prd_x', name: 'Bench', slug: 'bench' } });
  const body = Buffer.from(answer.body!, 'utf8');
  const run = (n: number) => {
    for (let i = 0; i < n; i++) signatureHeaders({ status: 200, body, now: new Date(), keyId: 'sig_bench', nonce: 'abc' }, (base) => sign(null, base, key));
  };
  run(2_000);
  const started = performance.now();
  run(20_000);
  return ((performance.now() - started) * 1000) / 20_000;
}

async function main() {
  const stack = await startLocalStack({ port: 0, dataDir: ':memory:', env: { EXPIRY_SWEEP_INTERVAL_MS: '0', RATE_LIMIT_SCALE: '1000000' } });
  try {
    const signed = await seedTenant(stack.url, { licenses: LICENSES, seats: 10 });
    const unsigned = await seedTenant(stack.url, { licenses: LICENSES, seats: 10 });
    // The second product as made before signing keys: no key, so its answers go unsigned (no surface has read it yet).
    await createDeps(loadConfig(), 'all').data.entities.product.patch({ productId: unsigned.productId }).remove(['signingKeys', 'signingKeyId']).go();
    const url = `${stack.url}/v1/licenses/validate`;
    const probe = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ license_key: signed.keys[0] }) });
    const bare = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ license_key: unsigned.keys[0] }) });
    if (!probe.headers.get('signature') || bare.headers.get('signature')) throw new Error('the signed product must sign and the other must not');
    console.log(`${LICENSES} licenses per product; ${CONNECTIONS} connections, ${DURATION_SECONDS} s per run, ${ROUNDS} rounds\n`);

    const nonce = { 'signature-nonce': 'bench-nonce-0123456789' };
    await validate('warm-up', url, [...signed.keys, ...unsigned.keys]);
    const signedRuns: LoadResult[] = [];
    const unsignedRuns: LoadResult[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate which goes first, so that drift over the run weighs on both.
      const pair = [() => validate('validate, signed', url, signed.keys, nonce), () => validate('validate, unsigned', url, unsigned.keys, nonce)];
      if (round % 2) pair.reverse();
      for (const run of pair) {
        const result = await run();
        (result.name.includes('unsigned') ? unsignedRuns : signedRuns).push(result);
      }
    }
    console.log(`signed / unsigned per round: ${signedRuns.map((run, i) => (run.rps / unsignedRuns[i]!.rps).toFixed(2)).join(', ')}`);
    const withSigning = print(median(signedRuns));
    const without = print(median(unsignedRuns));
    const ratio = withSigning.rps / without.rps;

    const signedCpu = await handlerCpuMicros(signed.keys, nonce);
    const unsignedCpu = await handlerCpuMicros(unsigned.keys, nonce);
    console.log(`\nsigned validate / unsigned validate: ${ratio.toFixed(2)}  (medians of ${ROUNDS} alternating runs; target ≥ ${TARGET})`);
    console.log(`service CPU per validate over HTTP: signed ${median(signedRuns).serviceCpuMicros.toFixed(0)} µs, unsigned ${median(unsignedRuns).serviceCpuMicros.toFixed(0)} µs`);
    console.log(`edge handler CPU per validate, in process: signed ${signedCpu.toFixed(0)} µs, unsigned ${unsignedCpu.toFixed(0)} µs (${IN_PROCESS_CALLS} calls each)`);
    console.log(`the signing step alone (digest, signature base, Ed25519): ${signingStepMicros().toFixed(1)} µs`);
    if (ratio < TARGET) process.exitCode = 1;
  } finally {
    await stack.stop();
  }
}

await main();
