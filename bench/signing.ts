/**
 * Signing benchmark: `npx tsx bench/signing.ts` (~1 min). What signed answers cost validate, in one run on one
 * local stack: validate over HTTP of a product with a signing key (every answer signed) against validate of a
 * product without one (a product as made before signing keys: answered unsigned), in alternating runs, each
 * with its own licenses; then, in this process, the edge handler's CPU per validate for both, and the signing
 * step alone. Target: signed validate ≥ 0.9 of unsigned validate's throughput (medians), else exit 1.
 */
import { randomBytes } from 'node:crypto';
import { createEdgeHandler } from '../functions/edge/app.js';
import { startLocalStack } from '../infra/local/stack.js';
import { FUNCTION_CONFIG_SECTIONS, loadConfig } from '../shared/platform/config.js';
import type { HttpEvent, HttpResult } from '../shared/platform/http/types.js';
import { ok } from '../shared/platform/http/responses.js';
import { createDeps, createLoadedDeps } from '../shared/platform/runtime.js';
import { envelopeBox, localKeyWrapper } from '../shared/platform/secrets/secret-box.js';
import { createKeyring, createResponseSigner } from '../shared/licensing/signing/response-signer.js';
import { newSigningKey, signingIdentityOf } from '../shared/catalog/products/signing-keys.js';
import { edgeEvent, seedTenant } from './support/fixtures.js';
import { loadFromAnotherProcess, median, print, type LoadResult } from './support/load-process.js';

const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = 5;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const LICENSES = 20;
const IN_PROCESS_CALLS = 4_000;
const BATCH = 250;
/** Signed validate's throughput against unsigned validate's, in the same run; under it, the bench fails. */
const TARGET = 0.9;

const validate = (name: string, url: string, keys: string[], headers?: Record<string, string>) =>
  loadFromAnotherProcess(name, { url, connections: CONNECTIONS, duration: DURATION_SECONDS, bodies: keys.map((key) => JSON.stringify({ license_key: key })), headers });

/**
 * CPU of this process per validate of the edge handler (one container, warmed first), for the signed product's keys
 * and the unsigned one's, in interleaved batches so that neither gains from running second (JIT, GC).
 */
async function handlerCpuMicros(signedKeys: string[], unsignedKeys: string[], headers: Record<string, string>): Promise<{ signed: number; unsigned: number }> {
  const handler = createEdgeHandler(createDeps(loadConfig(process.env, FUNCTION_CONFIG_SECTIONS.edge), 'edge')) as unknown as (e: HttpEvent, c: unknown) => Promise<HttpResult>;
  const call = async (keys: string[], i: number) => {
    const base = edgeEvent('POST', '/v1/licenses/validate', { body: { license_key: keys[i % keys.length] } });
    const result = await handler({ ...base, headers: { ...base.headers, ...headers } }, {});
    if (result.statusCode !== 200) throw new Error(`validate answered ${result.statusCode}`);
  };
  const batch = async (keys: string[]) => {
    const before = process.cpuUsage();
    for (let i = 0; i < BATCH; i++) await call(keys, i);
    const cpu = process.cpuUsage(before);
    return cpu.user + cpu.system;
  };
  await batch(signedKeys);
  await batch(unsignedKeys);
  let signed = 0;
  let unsigned = 0;
  for (let round = 0; round < IN_PROCESS_CALLS / BATCH; round++) {
    signed += await batch(signedKeys);
    unsigned += await batch(unsignedKeys);
  }
  return { signed: signed / IN_PROCESS_CALLS, unsigned: unsigned / IN_PROCESS_CALLS };
}

/** The signing step alone, as the edge runs it (opened key, digest, signature base, Ed25519, headers): CPU µs per answer. */
async function signingStepMicros(): Promise<number> {
  const secrets = envelopeBox(localKeyWrapper(randomBytes(32)));
  const owner = { tenantId: 'usr_bench', productId: 'prd_bench' };
  const key = await newSigningKey(secrets, owner, new Date());
  const identity = signingIdentityOf({ ...owner, signingKeys: [key], signingKeyId: key.keyId });
  const signer = createResponseSigner(createKeyring(secrets));
  const answer = () => ok({ valid: true, license: { key: 'BENCH-AAAA-BBBB-CCCC-DDDD', status: 'active', seats: 3, activatedCount: 1, expiresAt: null }, product: { id: 'prd_x', name: 'Bench', slug: 'bench' } });
  const run = async (n: number) => {
    for (let i = 0; i < n; i++) await signer.sign(answer(), identity, { now: new Date(), nonce: 'bench-nonce' });
  };
  await run(2_000);
  const before = process.cpuUsage();
  await run(20_000);
  const cpu = process.cpuUsage(before);
  return (cpu.user + cpu.system) / 20_000;
}

async function main() {
  const stack = await startLocalStack({ port: 0, dataDir: ':memory:', env: { EXPIRY_SWEEP_INTERVAL_MS: '0', RATE_LIMIT_SCALE: '1000000' } });
  try {
    const signed = await seedTenant(stack.url, { licenses: LICENSES, seats: 10 });
    const unsigned = await seedTenant(stack.url, { licenses: LICENSES, seats: 10 });
    // The second product as made before signing keys: no key, so its answers go unsigned (no surface has read it yet).
    await (await createLoadedDeps(loadConfig(), 'all')).data.entities.product.patch({ productId: unsigned.productId }).remove(['signingKeys', 'signingKeyId']).go();
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

    const cpu = await handlerCpuMicros(signed.keys, unsigned.keys, nonce);
    console.log(`\nsigned validate / unsigned validate: ${ratio.toFixed(2)}  (medians of ${ROUNDS} alternating runs; target ≥ ${TARGET})`);
    console.log(`service CPU per validate over HTTP: signed ${median(signedRuns).serviceCpuMicros.toFixed(0)} µs, unsigned ${median(unsignedRuns).serviceCpuMicros.toFixed(0)} µs`);
    console.log(`edge handler CPU per validate, in process: signed ${cpu.signed.toFixed(0)} µs, unsigned ${cpu.unsigned.toFixed(0)} µs (${IN_PROCESS_CALLS} calls each, interleaved)`);
    console.log(`the signing step alone (as the edge runs it: digest, signature base, Ed25519, headers): ${(await signingStepMicros()).toFixed(1)} µs of CPU`);
    if (ratio < TARGET) process.exitCode = 1;
  } finally {
    await stack.stop();
  }
}

await main();
