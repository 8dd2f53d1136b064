import { parse } from 'csv-parse/sync';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../../shared/platform/config.js';
import { requestExport } from '../../../shared/portability/exports/export-jobs.js';
import { runExport, type ExportProgress } from '../../../shared/portability/exports/export-run.js';
import { newId } from '../../../shared/platform/ids.js';
import { RECORD_TYPES, recordSchemas, type PortableRecord } from '../../../shared/portability/records.js';
import { systemClock } from '../../../shared/platform/runtime.js';
import { newTenant } from '../../support/client.js';
import { finishedExport } from '../../support/exports.js';
import { importFile } from '../../support/imports.js';
import { newLicense, newProduct, newRelease, plugin } from '../../support/licensing-fixtures.js';
import { localData } from '../../support/table.js';
import { createStorageClient } from '../../../shared/platform/s3/storage-client.js';

/** An account with something of every record type. */
async function populatedAccount() {
  const tenant = await newTenant();
  const product = await newProduct(tenant, { description: 'SEO for WordPress' });
  const plan = (await tenant.post(`/api/products/${product.id}/plans`, { name: 'Gold', billingCycle: 'yearly', price: 49, currency: 'USD', siteLimit: 3 })).body;
  const release = await newRelease(tenant, product.id, { version: '1.2.0', releaseNotes: 'Faster sitemaps' });
  const customer = (await tenant.post('/api/customers', { email: 'ann@example.com', firstName: 'Ann', metadata: { crm: 7 } })).body;
  const withPlan = await newLicense(tenant, product.id, { customerEmail: 'ann@example.com', planId: plan.id, customerName: 'Ann Lee' });
  const lifetime = await newLicense(tenant, product.id, { customerEmail: 'bob@example.com', seats: 1 });
  for (const domain of ['ann.com', 'staging.ann.com']) {
    expect((await plugin().post('/v1/licenses/activate', { license_key: withPlan.licenseKey, domain })).status).toBe(200);
  }
  const webhook = (await tenant.post('/api/webhooks', { name: 'CRM', url: 'http://127.0.0.1:9/hook', events: ['license.created'] })).body;
  return { tenant, product, plan, release, customer, licenses: [withPlan, lifetime], webhook };
}

const linesOf = (bytes: Buffer): PortableRecord[] =>
  bytes
    .toString('utf8')
    .trimEnd()
    .split('\n')
    .map((line) => recordSchemas().portable.parse(JSON.parse(line)));

describe('account export', () => {
  it('writes every record of the account as typed jsonl, in import order, without secrets, behind a presigned link', async () => {
    const { tenant, product, plan, release, customer, licenses, webhook } = await populatedAccount();
    const { job, bytes, disposition } = await finishedExport(tenant, 'jsonl');
    expect(disposition).toBe(`attachment; filename="export-${job.createdAt.slice(0, 10)}-${job.id}.jsonl"`);
    expect(job.url).toMatch(/X-Amz-Expires=3600/);
    const records = linesOf(bytes);
    const types = records.map((r) => r.type);
    // Each type's records together, in RECORD_TYPES order (the import reads in one pass).
    expect([...new Set(types)]).toEqual(RECORD_TYPES.filter((type) => type !== 'payment' && type !== 'subscription'));
    expect(types.map((type) => RECORD_TYPES.indexOf(type))).toEqual([...types.map((type) => RECORD_TYPES.indexOf(type))].sort((a, b) => a - b));
    expect(records[0]).toMatchObject({ type: 'export', formatVersion: 1, tenantId: tenant.userId });
    const ofType = (type: string) => records.filter((r) => r.type === type) as Record<string, unknown>[];
    expect(ofType('product')).toEqual([expect.objectContaining({ id: product.id, slug: product.slug, public_key: product.public_key, description: 'SEO for WordPress' })]);
    expect(ofType('plan')).toEqual([expect.objectContaining({ id: plan.id, slug: plan.slug, siteLimit: 3 })]);
    expect(ofType('release')).toEqual([expect.objectContaining({ id: release.id, version: '1.2.0', releaseNotes: 'Faster sitemaps' })]);
    expect(ofType('customer').map((c) => c.email).sort()).toEqual(['ann@example.com', 'bob@example.com']);
    expect(ofType('customer').find((c) => c.id === customer.id)).toMatchObject({ firstName: 'Ann', metadata: { crm: 7 } });
    expect(ofType('license').map((l) => l.licenseKey).sort()).toEqual(licenses.map((l) => l.licenseKey).sort());
    expect(ofType('license').find((l) => l.id === licenses[0]!.id)).toMatchObject({ planId: plan.id, customerName: 'Ann Lee', seats: 2 });
    expect(ofType('activation').map((a) => `${a.domain} ${a.environment}`).sort()).toEqual(['ann.com production', 'staging.ann.com staging']);
    expect(ofType('webhook')).toEqual([{ type: 'webhook', id: webhook.id, name: 'CRM', url: webhook.url, events: ['license.created'], enabled: true, createdAt: webhook.createdAt }]);
    expect(bytes.toString('utf8')).not.toContain(webhook.secret);
    expect(job.counts).toEqual({ export: 1, product: 1, plan: 1, release: 1, customer: 2, license: 2, activation: 2, payment: 0, subscription: 0, webhook: 1 });
    expect(job.fileSize).toBe(bytes.length);
    // Another tenant never sees it.
    expect((await (await newTenant()).get(`/api/exports/${job.id}`)).status).toBe(404);
  });

  it('writes a zip of CSV files, licenses.csv in the csv import columns with active domains and plan slugs', async () => {
    const { tenant, plan, licenses } = await populatedAccount();
    const { bytes } = await finishedExport(tenant, 'csv');
    const files = unzipSync(new Uint8Array(bytes));
    expect(Object.keys(files)).toEqual(RECORD_TYPES.filter((type) => type !== 'export').map((type) => `${type}s.csv`));
    const table = (name: string) => parse(strFromU8(files[name]!), { columns: true }) as Record<string, string>[];
    const rows = table('licenses.csv');
    expect(Object.keys(rows[0]!)).toEqual([
      'license_key', 'customer_email', 'customer_name', 'status', 'seats', 'expires_at', 'domains', 'plan_slug', 'created_at',
      'channel', 'id', 'product_id', 'plan_id', 'customer_id', 'features',
    ]);
    const withPlan = rows.find((row) => row.license_key === licenses[0]!.licenseKey)!;
    expect(withPlan).toMatchObject({ customer_email: 'ann@example.com', customer_name: 'Ann Lee', seats: '2', plan_slug: plan.slug, expires_at: '', channel: 'stable' });
    expect(withPlan.domains!.split(';').sort()).toEqual(['ann.com', 'staging.ann.com']);
    expect(rows.find((row) => row.license_key === licenses[1]!.licenseKey)).toMatchObject({ domains: '', plan_slug: '' });
    expect(table('customers.csv').find((row) => row.email === 'ann@example.com')).toMatchObject({ firstName: 'Ann', metadata: '{"crm":7}' });
    expect(table('payments.csv')).toEqual([]);
    expect(strFromU8(files['payments.csv']!)).toMatch(/^id,customerId,/);
  });

  it("writes cells that a spreadsheet would run as a formula with a leading ', and the csv import reads them back as they were", async () => {
    const tenant = await newTenant();
    const product = await newProduct(tenant);
    // What a buyer may type into a checkout's name fields, each a formula (or the start of one) in a spreadsheet. (A
    // leading tab or carriage return never gets this far: the API trims names; test/unit/portability covers them.)
    const names = ['=HYPERLINK("http://evil.example","Refund")', '+1 555 0100', '-2+3', '@SUM(A1:A9)'];
    const keys: string[] = [];
    for (const [i, name] of names.entries()) {
      keys.push((await newLicense(tenant, product.id, { customerEmail: `formula${i}@example.com`, customerName: name })).licenseKey);
    }
    expect((await tenant.post('/api/customers', { email: 'company@example.com', company: '=cmd|"/c calc"!A1' })).status).toBe(201);
    const files = unzipSync(new Uint8Array((await finishedExport(tenant, 'csv')).bytes));
    const licenses = parse(strFromU8(files['licenses.csv']!), { columns: true }) as Record<string, string>[];
    const written = keys.map((key) => licenses.find((row) => row.license_key === key)!.customer_name);
    expect(written).toEqual(names.map((name) => `'${name}`));
    const customers = parse(strFromU8(files['customers.csv']!), { columns: true }) as Record<string, string>[];
    expect(customers.find((row) => row.email === 'company@example.com')!.company).toBe(`'=cmd|"/c calc"!A1`);
    // No other cell starts with one of those characters unquoted.
    for (const [name, data] of Object.entries(files)) {
      for (const row of parse(strFromU8(data), { relax_column_count: true }) as string[][]) {
        expect([name, row.filter((value) => /^[=+\-@\t\r]/.test(value))]).toEqual([name, []]);
      }
    }

    // Imported back (into another account, as the keys exist once), each name is the one the API kept.
    const other = await newTenant();
    const target = await newProduct(other);
    await Promise.all(keys.map(async (key) => expect((await tenant.delete(`/api/licenses/${licenses.find((row) => row.license_key === key)!.id}`)).status).toBe(204)));
    const job = await importFile(other, { productId: target.id, format: 'csv' }, strFromU8(files['licenses.csv']!));
    expect(job).toMatchObject({ status: 'done', counts: { licenses: names.length }, errorCount: 0 });
    for (const [i, key] of keys.entries()) {
      const kept = (await other.get(`/api/licenses?search=${encodeURIComponent(key)}`)).body.items[0];
      expect([key, kept.customerName]).toEqual([key, names[i]]);
      expect(kept.customerEmail).toBe(`formula${i}@example.com`);
    }
  });

  it('refuses bad input with 400 and unknown exports with 404', async () => {
    const tenant = await newTenant();
    for (const body of [{}, { format: 'xml' }, { format: 'jsonl', extra: 1 }]) {
      const res = await tenant.post('/api/exports', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await tenant.post('/api/exports', {})).body.error).toBe('format is required');
    for (const id of [newId('exp'), 'exp_nope']) expect((await tenant.get(`/api/exports/${id}`)).body).toEqual({ error: 'Export not found' });
  });

  it('resumes where an invocation stopped: a run cut into many writes the same file as one run', async () => {
    const { tenant } = await populatedAccount();
    for (let i = 0; i < 12; i++) await newLicense(tenant, (await tenant.get('/api/products')).body.items[0].id, { customerEmail: `c${i}@example.com` });
    const config = loadConfig({ ...process.env, TABLE_NAME: inject('tableName'), EXPORT_BUCKET_NAME: inject('exportBucket') });
    const s3 = createStorageClient({ ...config, endpoints: { ...config.endpoints, s3: inject('s3Endpoint') } });
    const worker = { data: localData('exportWorker'), clock: systemClock, config, s3 };
    const queued: string[] = [];
    const management = { data: localData(), clock: systemClock, config, clients: { s3 }, exportQueue: { send: async ({ exportId }: { exportId: string }) => void queued.push(exportId) } };

    const whole = await requestExport(management, tenant.userId, 'csv');
    expect(await runExport(worker, whole.id, { shouldStop: () => false, leaseMs: 60_000 })).toBe('done');

    // Tiny parts, and every invocation stops after its first batch: many invocations, parts and stashed bytes.
    const cut = await requestExport(management, tenant.userId, 'csv');
    let invocations = 0;
    const seen = new Set<string>();
    for (;;) {
      invocations += 1;
      if (invocations > 100) throw new Error(`no end after 100 invocations: ${[...seen].join(' ')}`);
      const outcome = await runExport(worker, cut.id, { shouldStop: () => true, leaseMs: 60_000, partBytes: 300, pageSize: 4 });
      if (outcome === 'done') break;
      expect(outcome).toBe('continue');
      const { data: job } = await localData().entities.exportJob.get({ exportId: cut.id }).go();
      const progress = job!.progress as ExportProgress;
      seen.add(`${progress.stage}:${progress.parts.length}:${progress.stashed > 0}`);
      // Held by nobody between invocations; a second worker meanwhile would have to claim it first.
      expect(job!.leaseUntil).toBe(0);
    }
    // 9 files; licenses and customers take several batches of 4 (14 of each), products' plans and releases one of 1.
    expect(invocations).toBeGreaterThan(14);
    expect([...seen].some((state) => state.endsWith('true'))).toBe(true);
    expect(queued).toEqual([whole.id, cut.id]);

    const read = async (id: string) => {
      const view = (await (await newTenant()).get(`/api/exports/${id}`)).status;
      expect(view).toBe(404);
      const { data: job } = await localData().entities.exportJob.get({ exportId: id }).go();
      expect(job!.status).toBe('done');
      const { s3: client, sdk } = await s3();
      const { Body } = await client.send(new sdk.GetObjectCommand({ Bucket: inject('exportBucket'), Key: job!.fileKey }));
      const files = unzipSync(await Body!.transformToByteArray());
      return Object.fromEntries(Object.entries(files).map(([name, data]) => [name, strFromU8(data)]));
    };
    expect(await read(cut.id)).toEqual(await read(whole.id));
    // A finished job is not run again.
    expect(await runExport(worker, cut.id, { shouldStop: () => false, leaseMs: 60_000 })).toBe('skipped');
    (await s3()).s3.destroy();
  }, 120_000);
});
