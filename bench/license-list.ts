import { startLocalStack } from '../infra/local/stack.js';
import { loadConfig } from '../shared/platform/config.js';
import { newId } from '../shared/platform/ids.js';
import { createLicense } from '../shared/licensing/licenses/create-license.js';
import { listLicenses, type LicenseStatus } from '../shared/licensing/licenses/list-licenses.js';
import { updateLicense } from '../shared/licensing/licenses/update-license.js';
import { createProduct } from '../shared/catalog/products/products.js';
import { createLoadedDeps, type Deps } from '../shared/platform/runtime.js';
import { SECRET_ACCESS } from '../shared/platform/secrets/secret-access.js';
import { meter, pool, type Meter } from './support/capacity-meter.js';
import { createSecretBox } from '../shared/platform/secrets/secret-box.js';

/**
 * `npx tsx bench/license-list.ts`: page 1 of the license list must cost about one page, however many
 * licenses the tenant has. Creates 10,000 licenses (a mix of statuses) for one tenant on a fresh local
 * stack, then measures the read capacity DynamoDB reports and the items it read for page 1, unfiltered
 * and filtered by status. Exits non-zero when either exceeds 3× one page.
 */
const LICENSES = Number(process.env.BENCH_LICENSES ?? 10_000);
const CONCURRENCY = 32;
const PER_PAGE = 20;
/** A license item is well under 1 KB: one page read strongly consistent costs at most this (4 KB per unit). */
const ONE_PAGE_RCU = Math.ceil((PER_PAGE * 1024) / 4096);
const BUDGET = { items: 3 * PER_PAGE, rcu: 3 * ONE_PAGE_RCU };

/** Every 5th license suspended, every 7th revoked, every 11th expired; the rest active. */
function statusOf(i: number): LicenseStatus {
  if (i % 11 === 0) return 'expired';
  if (i % 7 === 0) return 'revoked';
  if (i % 5 === 0) return 'suspended';
  return 'active';
}

async function seed(deps: Deps, tenantId: string): Promise<void> {
  const product = await createProduct({ ...deps, secrets: createSecretBox(deps.config, SECRET_ACCESS.management) }, tenantId, { name: `Bench ${Date.now()}`, productType: 'plugin' });
  const started = Date.now();
  await pool(LICENSES, CONCURRENCY, async (i) => {
    const license = await createLicense(deps, tenantId, { productId: product.id, customerEmail: `buyer${i % 500}@example.com` });
    const status = statusOf(i);
    if (status !== 'active') await updateLicense(deps, tenantId, license.id, { status });
    if ((i + 1) % 1000 === 0) console.log(`  ${i + 1} licenses (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  });
}

const stack = await startLocalStack({ port: 0, dataDir: ':memory:', env: { EXPIRY_SWEEP_INTERVAL_MS: '0' } });
let exitCode = 0;
try {
  const config = loadConfig(process.env);
  const tenantId = newId('usr');
  console.log(`Seeding ${LICENSES} licenses…`);
  await seed(await createLoadedDeps(config, 'all'), tenantId);

  // The license list is the management function's, which has the whole table.
  const measured = await createLoadedDeps(config, 'all');
  const totals = meter(measured.clients.documents);
  const rows: Record<string, Meter & { total: number; withinBudget: boolean }> = {};
  const scenarios: [string, { status?: LicenseStatus; page?: number }, boolean][] = [
    ['page 1, unfiltered', {}, true],
    ['page 1, status=active', { status: 'active' }, true],
    ['page 1, status=suspended', { status: 'suspended' }, true],
    ['page 25, unfiltered (not gated)', { page: 25 }, false],
  ];
  for (const [name, filter, gated] of scenarios) {
    Object.assign(totals, { rcu: 0, items: 0, requests: 0 });
    const page = await listLicenses(measured, tenantId, { page: filter.page ?? 1, perPage: PER_PAGE, status: filter.status });
    if (page.items.length !== PER_PAGE) throw new Error(`${name}: expected ${PER_PAGE} items, got ${page.items.length}`);
    const withinBudget = !gated || (totals.items <= BUDGET.items && totals.rcu <= BUDGET.rcu);
    rows[name] = { ...totals, total: page.pagination.total, withinBudget };
    if (!withinBudget) exitCode = 1;
  }
  console.log(`\nLicense list, ${PER_PAGE} per page; budget for page 1: ≤ ${BUDGET.items} items read and ≤ ${BUDGET.rcu} RCU`);
  console.table(rows);
  if (exitCode) console.error('FAIL: page 1 of the license list reads more than 3× one page');
} catch (error) {
  console.error(error);
  exitCode = 1;
} finally {
  await stack.stop();
}
process.exit(exitCode);
