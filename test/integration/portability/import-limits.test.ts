import { describe, expect, it } from 'vitest';
import { newTenant } from '../../support/client.js';
import { finishedImport, importFile, startImport } from '../../support/imports.js';
import { newProduct, plugin, type Tenant } from '../../support/licensing-fixtures.js';

/**
 * What one account's import may take of the service (DECISIONS §20, issue 44): one import queued or running at a time
 * per account, two import workers at a time in the whole deployment (the local runtime honours the cap the stack sets),
 * and a license of up to 1,000 activations imported whole, where a transaction holds fewer than 100 items.
 */

/** Our CSV of `count` licenses of their own customers, each active on one site. */
function licensesFile(label: string, count: number): string {
  const rows = Array.from({ length: count }, (_, i) => `LIMIT-${label}-${String(i).padStart(5, '0')},${label.toLowerCase()}${i}@example.com,active,2,site${i}.${label.toLowerCase()}.example.org`);
  return `license_key,customer_email,status,seats,domains\n${rows.join('\n')}\n`;
}

const post = (tenant: Tenant, productId: string, file: string) =>
  tenant.request('POST', `/api/imports?productId=${productId}&format=csv`, { rawBody: file, headers: { 'content-type': 'text/csv' } });

describe('imports of one account', () => {
  it('are one at a time: a second while one is queued or running is 409, and once it has ended the next starts', async () => {
    const tenant = await newTenant();
    const product = await newProduct(tenant);
    const run = product.id.slice(-5);
    const first = await startImport(tenant, { productId: product.id, format: 'csv' }, licensesFile(`A${run}`, 400));
    // A dry run is an import too.
    for (const query of ['', '&dryRun=true']) {
      const second = await tenant.request('POST', `/api/imports?productId=${product.id}&format=csv${query}`, { rawBody: licensesFile(`B${run}`, 2), headers: { 'content-type': 'text/csv' } });
      expect([second.status, second.body]).toEqual([409, { error: 'An import is already running' }]);
    }
    // Another account imports meanwhile.
    const other = await newTenant();
    expect((await post(other, (await newProduct(other)).id, licensesFile(`C${run}`, 2))).status).toBe(202);

    expect((await finishedImport(tenant, first, 60_000)).status).toBe('done');
    const next = await post(tenant, product.id, licensesFile(`B${run}`, 2));
    expect(next.status, next.text).toBe(202);
    expect((await finishedImport(tenant, next.body.id)).counts.licenses).toBe(2);
    // Only the refused ones were never recorded.
    expect((await tenant.get('/api/imports')).body.pagination.total).toBe(2);
  });

  it('free the account when one fails: the next import starts', async () => {
    const tenant = await newTenant();
    const product = await newProduct(tenant);
    const failed = await importFile(tenant, { productId: product.id, format: 'csv' }, 'no_key_here,customer_email\nx,y@example.com\n');
    expect(failed).toMatchObject({ status: 'failed', failure: expect.stringContaining('no license_key column') });
    expect((await post(tenant, product.id, licensesFile(`D${product.id.slice(-5)}`, 1))).status).toBe(202);
  });
});

describe('import workers', () => {
  it('run at most two at a time across the deployment, however many accounts import', async () => {
    const imports = await Promise.all(
      ['E', 'F', 'G'].map(async (label) => {
        const tenant = await newTenant();
        const product = await newProduct(tenant);
        return { tenant, id: await startImport(tenant, { productId: product.id, format: 'csv' }, licensesFile(`${label}${product.id.slice(-5)}`, 300)) };
      }),
    );
    let mostRunning = 0;
    for (;;) {
      const statuses = await Promise.all(imports.map(async ({ tenant, id }) => (await tenant.get(`/api/imports/${id}`)).body.status as string));
      mostRunning = Math.max(mostRunning, statuses.filter((status) => status === 'running').length);
      if (statuses.every((status) => status === 'done' || status === 'failed')) {
        expect(statuses).toEqual(['done', 'done', 'done']);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(mostRunning).toBeGreaterThan(0);
    expect(mostRunning).toBeLessThanOrEqual(2);
  }, 180_000);
});

describe('a license with many activations', () => {
  it('imports with all 1,000 of its sites (staging ones taking no seat), between ordinary rows', async () => {
    const tenant = await newTenant();
    const product = await newProduct(tenant);
    const run = product.id.slice(-6);
    // 990 production sites and 10 local copies; the product's staging limit (3) is passed, which the row is told.
    const sites = [...Array.from({ length: 990 }, (_, i) => `shop${i}.${run}.example.com`), ...Array.from({ length: 10 }, (_, i) => `copy${i}.${run}.local`)];
    const rows = [
      'license_key,customer_email,status,seats,domains',
      `MANY-${run}-before,buyer@example.com,active,1,one.${run}.example.com`,
      `MANY-${run}-agency,agency@example.com,active,992,${sites.join(';')}`,
      `MANY-${run}-after,buyer@example.com,active,1,two.${run}.example.com`,
    ];
    const job = await importFile(tenant, { productId: product.id, format: 'csv' }, `${rows.join('\n')}\n`);
    expect(job).toMatchObject({ status: 'done', counts: { licenses: 3, customers: 2, activations: 1002, skipped: 0 }, errorCount: 0 });
    expect(job.warnings).toEqual([{ row: 3, message: "10 staging sites are more than the product's staging limit (3): all are kept; no other staging site activates until some are deactivated" }]);

    const agency = (await plugin().post('/v1/licenses/validate', { license_key: `MANY-${run}-agency` }, { origin: null })).body;
    expect(agency).toMatchObject({ valid: true, license: { seats: 992, activatedCount: 990 } });
    // Every site is active, the last one too, and one more takes the last seats.
    for (const domain of [sites[0], sites[989], sites[999]]) {
      const res = await plugin().post('/v1/licenses/validate', { license_key: `MANY-${run}-agency`, domain }, { origin: null });
      expect([domain, res.body.valid], res.text).toEqual([domain, true]);
    }
    for (const n of [0, 1]) {
      const res = await plugin().post('/v1/licenses/activate', { license_key: `MANY-${run}-agency`, domain: `new${n}.${run}.example.net` }, { origin: null });
      expect([n, res.status]).toEqual([n, 200]);
    }
    const full = await plugin().post('/v1/licenses/activate', { license_key: `MANY-${run}-agency`, domain: `new2.${run}.example.net` }, { origin: null });
    expect([full.status, full.body.error]).toEqual([400, 'License seat limit reached']);
    for (const key of [`MANY-${run}-before`, `MANY-${run}-after`]) {
      expect((await plugin().post('/v1/licenses/validate', { license_key: key }, { origin: null })).body.license.activatedCount).toBe(1);
    }
    const { body } = await tenant.get(`/api/licenses/${(await tenant.get(`/api/licenses?search=MANY-${run}-agency`)).body.items[0].id}`);
    expect([body.activatedCount, body.stagingCount]).toEqual([992, 10]);
  }, 120_000);
});
