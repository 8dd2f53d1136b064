/**
 * Floating leases: `npx tsx bench/leases.ts` (~40 s; `LEASE_BENCH_MS` per side and round, default 2000). Starts its own
 * local stack in memory and a floating license of many seats, then
 * 1. units per operation: one lease, renewal, heartbeat and release through a fresh edge handler, metered as
 *    bench/write-units.ts meters (read and write units, DynamoDB's published rules from the items' sizes);
 * 2. throughput: leases (each a new machine) and heartbeats through the handler, against raw writes of the same shape
 *    (the lease's transaction, and the heartbeat's three conditional updates, sent directly), `CONCURRENCY` in flight.
 * The floor is what the table costs; the difference is the handler's reads (license, pool), rate limits and work.
 * Final figures need a quiet machine; on a shared one, read the ratios, not the rates.
 */
import { createEdgeHandler } from '../functions/edge/app.js';
import { startLocalStack } from '../infra/local/stack.js';
import { FUNCTION_CONFIG_SECTIONS, loadConfig } from '../shared/platform/config.js';
import { transact } from '../shared/platform/data/writes.js';
import type { HttpEvent, HttpResult } from '../shared/platform/http/types.js';
import { newId } from '../shared/platform/ids.js';
import { leaseCreationWrites } from '../shared/licensing/leases/leases.js';
import { leaseShard, poolItemTtl, type LeaseItem } from '../shared/licensing/leases/lease-view.js';
import { createLoadedDeps } from '../shared/platform/runtime.js';
import { computed, meterCapacity } from './capacity/accounting.js';
import { edgeEvent, seedTenant } from './support/fixtures.js';
import { printLoad } from './support/rounds.js';

/** A large office's pool: every lease reads the pool's slots, so its size is part of what is measured. */
const SEATS = 500;
const CONCURRENCY = 8;
const SIDE_MS = Number(process.env.LEASE_BENCH_MS ?? 2000);
const SOURCE_IP = '198.51.100.9';

/** Calls `run` with `CONCURRENCY` in flight for `ms`; answers completed calls per second. */
async function throughput(ms: number, run: (n: number) => Promise<void>): Promise<number> {
  const end = performance.now() + ms;
  let done = 0;
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) {
        await run(next++);
        done++;
      }
    }),
  );
  return done / ((performance.now() - start) / 1000);
}

async function main() {
  const stack = await startLocalStack({
    port: 0,
    dataDir: ':memory:',
    env: { EXPIRY_SWEEP_INTERVAL_MS: '0', LEASE_EXPIRY_INTERVAL_MS: '0', RATE_LIMIT_SCALE: '1000000' },
  });
  try {
    printLoad('start');
    // One license for the handler, one for the raw writes, so neither takes the other's slots.
    const { keys } = await seedTenant(stack.url, { licenses: 2, seats: SEATS, licenseFields: { floating: true } });
    const key = keys[0]!;
    const deps = await createLoadedDeps(loadConfig(process.env, FUNCTION_CONFIG_SECTIONS.edge), 'edge');
    const handler = createEdgeHandler(deps) as unknown as (e: HttpEvent, c: unknown) => Promise<HttpResult>;
    const call = async (path: string, body: Record<string, string>, expected: number) => {
      const result = await handler(edgeEvent('POST', path, { body: { license_key: key, ...body }, sourceIp: SOURCE_IP }), {});
      if (result.statusCode !== expected) throw new Error(`${path}: ${result.statusCode} ${result.body}`);
      return JSON.parse(result.body as string) as { lease_id: string; expires_at: string };
    };
    const release = async (leaseId: string) => {
      const result = await handler(edgeEvent('DELETE', `/v1/licenses/leases/${leaseId}`, { query: { license_key: key }, sourceIp: SOURCE_IP }), {});
      if (result.statusCode !== 204) throw new Error(`release: ${result.statusCode}`);
    };

    // 1. Units per operation.
    const meter = meterCapacity(deps.clients, { endpoint: process.env.DYNAMODB_ENDPOINT!, tableName: process.env.TABLE_NAME! });
    const measure = (run: () => Promise<unknown>) => meter.measure(async () => ({ statusCode: (await run(), 0) }));
    await call('/v1/licenses/validate', {}, 200); // a warm container: the product is cached
    let leaseId = '';
    const rows: [string, Awaited<ReturnType<typeof measure>>][] = [
      ['lease (new)', await measure(async () => (leaseId = (await call('/v1/licenses/leases', { machine: 'units-1' }, 201)).lease_id))],
      ['lease (renewal, same machine)', await measure(() => call('/v1/licenses/leases', { machine: 'units-1' }, 201))],
      ['heartbeat', await measure(() => call(`/v1/licenses/leases/${leaseId}/heartbeat`, {}, 200))],
      ['validate + machine (floating)', await measure(() => call('/v1/licenses/validate', { machine: 'units-1' }, 200))],
      ['release', await measure(() => release(leaseId))],
    ];
    meter.stop();
    console.log(`${'operation'.padEnd(32)} requests  read units  write units (computed)  by table / index`);
    for (const [name, units] of rows) {
      const where = [...units.computedBy].map(([at, n]) => `${at} ${n}`).join(', ');
      console.log(`${name.padEnd(32)} ${String(units.requests).padStart(8)}  ${units.read.toFixed(1).padStart(10)}  ${String(computed(units)).padStart(22)}  ${where}`);
    }

    // 2. Throughput against raw writes of the same shape.
    const license = (await deps.data.reads.license.get({ licenseKey: keys[1]! }, { consistent: true }))!;
    let rawSlot = 0;
    const rawLease = async () => {
      const now = new Date();
      const expiresAt = new Date(now.getTime() + 900_000);
      const leaseId = newId('lse');
      const item: LeaseItem = {
        leaseId, licenseId: license.licenseId, tenantId: license.tenantId, productId: license.productId, machine: `raw-${rawSlot}`,
        slot: rawSlot++, createdAt: now.toISOString(), expiresAt: expiresAt.toISOString(), ttl: poolItemTtl(expiresAt), leaseShard: leaseShard(leaseId),
      };
      const outcome = await transact(deps.data, (tx) => leaseCreationWrites(tx, license, item, now));
      if (!outcome.committed) throw new Error('raw lease refused');
      return item;
    };
    const heldRaw = await Promise.all(Array.from({ length: CONCURRENCY * 4 }, rawLease));
    const rawHeartbeat = async (n: number) => {
      const lease = heldRaw[n % heldRaw.length]!;
      const nowIso = new Date().toISOString();
      const expiresAt = new Date(Date.now() + 900_000).toISOString();
      const { licenseId, leaseId, slot, machine } = lease;
      const outcome = await transact(deps.data, (tx) => ({
        slot: tx.leaseSlot.patch({ licenseId, slot }).set({ expiresAt }).where((i, { eq, gt }) => `${eq(i.leaseId, leaseId)} AND ${gt(i.expiresAt, nowIso)}`).commit(),
        hold: tx.leaseHold.patch({ licenseId, machine }).set({ expiresAt }).where((i, { eq }) => eq(i.leaseId, leaseId)).commit(),
        lease: tx.lease.patch({ leaseId }).set({ expiresAt, leaseShard: lease.leaseShard }).where((i, { gt }) => gt(i.expiresAt, nowIso)).commit(),
      }));
      if (!outcome.committed) throw new Error('raw heartbeat refused');
    };
    const held = await Promise.all(Array.from({ length: CONCURRENCY * 4 }, (_, n) => call('/v1/licenses/leases', { machine: `beat-${n}` }, 201)));
    let machine = 0;
    const results = {
      lease: await throughput(SIDE_MS, async () => void (await call('/v1/licenses/leases', { machine: `m-${machine++}` }, 201))),
      rawLease: await throughput(SIDE_MS, async () => void (await rawLease())),
      heartbeat: await throughput(SIDE_MS, async (n) => void (await call(`/v1/licenses/leases/${held[n % held.length]!.lease_id}/heartbeat`, {}, 200))),
      rawHeartbeat: await throughput(SIDE_MS, rawHeartbeat),
    };
    console.log(`\nthroughput, ${CONCURRENCY} in flight, ${SIDE_MS} ms per side (DynamoDB Local; a shared machine: compare the ratios)`);
    console.log(`lease      ${results.lease.toFixed(0).padStart(6)}/s   raw transaction of the same items ${results.rawLease.toFixed(0).padStart(6)}/s   ratio ${(results.rawLease / results.lease).toFixed(2)}`);
    console.log(`heartbeat  ${results.heartbeat.toFixed(0).padStart(6)}/s   raw transaction of the same items ${results.rawHeartbeat.toFixed(0).padStart(6)}/s   ratio ${(results.rawHeartbeat / results.heartbeat).toFixed(2)}`);
    printLoad('end');
  } finally {
    await stack.stop();
  }
}

await main();
