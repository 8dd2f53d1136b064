import { startLocalStack } from '../infra/local/stack.js';
import { addDays, dayOf } from '../shared/insights/analytics/days.js';
import { writeUsage } from '../shared/insights/analytics/usage-writer.js';
import { loadConfig } from '../shared/platform/config.js';
import { ALL_PRODUCTS, GAUGE_DAY } from '../shared/platform/data/attribute-values.js';
import { newId } from '../shared/platform/ids.js';
import { createLicense } from '../shared/licensing/licenses/create-license.js';
import { readOverview } from '../shared/insights/overview/overview.js';
import { createProduct } from '../shared/catalog/products/products.js';
import { createLoadedDeps, type Deps } from '../shared/platform/runtime.js';
import { SECRET_ACCESS } from '../shared/platform/secrets/secret-access.js';
import { createSecretBox } from '../shared/platform/secrets/secret-box.js';
import { meter, pool } from './support/capacity-meter.js';

/**
 * `npx tsx bench/overview.ts`: the read units of one overview (`GET /api/analytics/overview`) of 30 and of 365 days
 * must stay within 2 per day of the range, and be the same for a small account (10 licenses, 10 sites) and a
 * large one (BENCH_LICENSES licenses, BENCH_SITES sites), both with a year of daily counts. Exits non-zero when
 * either misses.
 */
const SIZES = { small: { licenses: 10, sites: 10 }, large: { licenses: Number(process.env.BENCH_LICENSES ?? 1_000), sites: Number(process.env.BENCH_SITES ?? 10_000) } };
const RCU_PER_DAY = 2;
/** How far the large account's reads may exceed the small one's and still be flat: a few sketch bytes of rounding. */
const FLAT = 1.1;

/** A busy account's year: every day some revenue, a refund, new licenses, churn, and sightings by 10 versions, 5 PHP and 8 WordPress versions. */
function yearOfCounts(tenantId: string, productId: string, today: string) {
  const items = [];
  for (let d = 0; d < 365; d++) {
    const day = addDays(today, -d);
    const named: [string, string, number][] = [
      ['revenue', 'USD', 4950], ['revenue', 'EUR', 1900], ['refunds', 'USD', 4950], ['refundCount', 'USD', 1], ['newLicenses', 'all', 3], ['churned', 'all', 1], ['sightings', 'all', 40],
      ...Array.from({ length: 10 }, (_, v) => ['version', `2.${v}.0`, 4] as [string, string, number]),
      ...['7.4', '8.0', '8.1', '8.2', '8.3'].map((php) => ['php', php, 8] as [string, string, number]),
      ...Array.from({ length: 8 }, (_, w) => ['wp', `6.${w}`, 5] as [string, string, number]),
    ];
    for (const scope of [productId, ALL_PRODUCTS]) for (const [metric, name, count] of named) items.push({ tenantId, scope, day, metric, name, count });
  }
  for (const scope of [productId, ALL_PRODUCTS]) items.push({ tenantId, scope, day: GAUGE_DAY, metric: 'arr', name: 'USD', count: 59400 }, { tenantId, scope, day: GAUGE_DAY, metric: 'activeSubscriptions', name: 'all', count: 10 });
  return items as { tenantId: string; scope: string; day: string; metric: 'revenue'; name: string; count: number }[];
}

/** Seeding tries a request again when a busy machine times it out (its measurements are read units, not times). */
async function patiently<T>(run: () => Promise<T>, tries = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (attempt >= tries) throw error;
    }
  }
}

async function seed(deps: Deps, size: { licenses: number; sites: number }) {
  const tenantId = newId('usr');
  const product = await createProduct({ ...deps, secrets: createSecretBox(deps.config, SECRET_ACCESS.management) }, tenantId, { name: `Bench ${Date.now()}`, productType: 'plugin' });
  await pool(size.licenses, 4, async (i) => void (await patiently(() => createLicense(deps, tenantId, { productId: product.id, customerEmail: `buyer${i % 200}@example.com` }))));
  const today = dayOf(deps.clock.now());
  const counts = yearOfCounts(tenantId, product.id, today);
  for (let c = 0; c < counts.length; c += 250) {
    const { unprocessed } = await patiently(() => deps.data.entities.overviewCount.put(counts.slice(c, c + 250)).go({ concurrency: 1 }));
    if (unprocessed.length) throw new Error(`${unprocessed.length} counts not written`);
  }
  // The sites, seen over the last 7 days, through the usage writer as the queue feeds it (batches of 100).
  const messages = Array.from({ length: size.sites }, (_, i) => ({ kind: 'install', productId: product.id, tenantId, day: addDays(today, -(i % 7)), site: `site-${i}.example`, version: `2.${i % 10}.0`, php: '8.3', wp: '6.7' }));
  for (let b = 0; b < messages.length; b += 100) {
    let batch = messages.slice(b, b + 100).map((message, i) => ({ messageId: `m${b + i}`, receiveCount: 1, body: JSON.stringify(message) }));
    // What failed goes back to the queue and comes again, as SQS would redeliver it (a busy machine times requests out).
    for (let receive = 2; batch.length > 0; receive++) {
      const failed = new Set(await writeUsage(deps, batch));
      if (failed.size > 0 && receive > 5) throw new Error(`${failed.size} sightings not written`);
      batch = batch.filter((m) => failed.has(m.messageId)).map((m) => ({ ...m, receiveCount: receive }));
    }
  }
  return { tenantId, productId: product.id };
}

const stack = await startLocalStack({ port: 0, dataDir: ':memory:', env: { EXPIRY_SWEEP_INTERVAL_MS: '0' } });
let exitCode = 0;
try {
  const config = loadConfig(process.env);
  const seeding = await createLoadedDeps(config, 'all');
  const accounts = { small: await seed(seeding, SIZES.small), large: await seed(seeding, SIZES.large) };
  const measured = await createLoadedDeps(config, 'all');
  const totals = meter(measured.clients.documents);
  const rows: Record<string, { days: number; rcu: number; items: number; requests: number; rcuPerDay: number; activeInstalls: number }> = {};
  for (const days of [30, 365]) {
    for (const [name, account] of Object.entries(accounts)) {
      for (const productId of [undefined, account.productId]) {
        Object.assign(totals, { rcu: 0, items: 0, requests: 0 });
        const to = dayOf(measured.clock.now());
        const overview = await readOverview(measured, account.tenantId, { from: addDays(to, 1 - days), to, productId });
        const label = `${name} (${SIZES[name as 'small'].licenses} licenses, ${SIZES[name as 'small'].sites} sites), ${days} days${productId ? ', one product' : ''}`;
        rows[label] = { days, ...totals, rcuPerDay: Number((totals.rcu / days).toFixed(3)), activeInstalls: overview.activeInstalls };
        if (totals.rcu > RCU_PER_DAY * days) exitCode = 1;
      }
    }
  }
  console.log(`\nOne overview's read units; budget ≤ ${RCU_PER_DAY} per day of range, large account within ${FLAT}× the small one's`);
  console.table(rows);
  const values = Object.values(rows);
  for (let i = 0; i < values.length / 2; i++) {
    // Rows go small, small (product), large, large (product) for each range.
    const base = Math.floor(i / 2) * 4 + (i % 2);
    const [small, large] = [values[base]!, values[base + 2]!];
    if (large.rcu > small.rcu * FLAT) {
      console.error(`FAIL: ${large.days} days: the large account reads ${large.rcu} RCU against ${small.rcu}`);
      exitCode = 1;
    }
  }
  if (exitCode) console.error('FAIL: an overview read misses its budget');
} catch (error) {
  console.error(error);
  exitCode = 1;
} finally {
  await stack.stop();
}
process.exit(exitCode);
