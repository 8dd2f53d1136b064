import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Context, SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { createImportWorkerHandler } from '../../../functions/import-worker/app.js';
import { lambdaContext } from '../../../infra/local/lambda-context.js';
import { startObjectStore, type ObjectStore } from '../../../infra/local/object-store.js';
import { freePort } from '../../../infra/local/ports.js';
import { systemClock } from '../../../shared/platform/runtime.js';
import { loadConfig } from '../../../shared/platform/config.js';
import { enforceKeyAccess } from '../../../shared/platform/data/key-access-guard.js';
import { createDataService } from '../../../shared/platform/data/service.js';
import { importFileKey, newUploadId, putImportFile } from '../../../shared/portability/imports/import-files.js';
import { createImportJob } from '../../../shared/portability/imports/import-jobs.js';
import { createStorageClient } from '../../../shared/platform/s3/storage-client.js';
import { newTenant } from '../../support/client.js';
import { importFile } from '../../support/imports.js';
import { newProduct, plugin, type Tenant } from '../../support/licensing-fixtures.js';
import * as dataModel from '../../../shared/platform/data/model.js';

/**
 * An import goes on from where it stopped, whatever stopped it: its worker's invocation running out of time (it
 * queues the rest), the worker dying between batches (the message comes back), or a second worker given the same
 * import. Each batch moves the import's cursor in its own transaction, so no row is written or counted twice. The
 * worker's handler runs here as its function does, on the stack's table under its own key access, with a bucket
 * of the test's own (nothing queues these imports to the stack's worker).
 */

const ROWS = 150;
const BUCKET = 'import-resume';
let objects: ObjectStore;
let config: ReturnType<typeof loadConfig>;

beforeAll(async () => {
  objects = await startObjectStore({ buckets: [BUCKET], port: await freePort() });
  config = loadConfig({ RUNTIME: 'local', TABLE_NAME: inject('tableName'), BUCKET_NAME: BUCKET, S3_ENDPOINT: objects.endpoint });
});
afterAll(() => objects?.stop());

/**
 * The worker's table client; `failAfter`: the table refuses every transaction after that many, as if the worker died
 * there; `beforeFirstTransaction`: runs once, when the worker has read its first rows and is about to write them;
 * `afterTransaction`: runs after each.
 */
function workerData(failAfter = Infinity, beforeFirstTransaction?: () => Promise<void>, afterTransaction?: () => void) {
  const raw = new DynamoDBClient({ endpoint: inject('dynamoEndpoint'), region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  enforceKeyAccess(raw, 'importWorker');
  let transactions = 0;
  raw.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName !== 'TransactWriteItemsCommand') return next(args);
      if (++transactions > failAfter) throw new Error('the worker died here');
      if (transactions === 1) await beforeFirstTransaction?.();
      const result = await next(args);
      afterTransaction?.();
      return result;
    },
    { step: 'initialize', name: 'dieAfterTransactions' },
  );
  return createDataService(DynamoDBDocumentClient.from(raw), config.tableName, undefined, dataModel);
}

/** The bucket's client, counting the bytes each GetObject of a key answered. */
function countingStorage() {
  const read = new Map<string, number>();
  const storage = createStorageClient(config);
  let counting = false;
  const s3 = async () => {
    const client = await storage();
    if (!counting) {
      counting = true;
      client.s3.middlewareStack.add(
        (next, context) => async (args) => {
          const result = await next(args);
          const { Key } = args.input as { Key?: string };
          if (context.commandName === 'GetObjectCommand' && Key) read.set(Key, (read.get(Key) ?? 0) + ((result.output as { ContentLength?: number }).ContentLength ?? 0));
          return result;
        },
        { step: 'initialize', name: 'countReads' },
      );
    }
    return client;
  };
  return { s3, read };
}

/** A worker as the import queue feeds it; `sent` collects the imports it queues again. */
function worker(data = workerData(), s3 = createStorageClient(config), clock = systemClock) {
  const sent: string[] = [];
  const handler = createImportWorkerHandler({ config, clients: { s3 } as never, data, clock, queue: { send: async (id) => void sent.push(id) } });
  const run = (importId: string, context: Context = lambdaContext('importWorker', 300)) =>
    handler({ Records: [{ messageId: `msg-${importId}`, body: JSON.stringify({ importId }) }] } as SQSEvent, context);
  return { run, sent };
}

/** A tenant's product and a queued import of `file` (our CSV). */
async function queuedFile(file: string, clock = systemClock): Promise<{ tenant: Tenant; productId: string; importId: string; fileKey: string }> {
  const tenant = await newTenant();
  const product = await newProduct(tenant);
  const fileKey = importFileKey(tenant.userId, newUploadId());
  const storage = { config, clients: { s3: createStorageClient(config) } };
  await putImportFile(storage, fileKey, Buffer.from(file), 'text/csv');
  const job = await createImportJob({ data: workerData(), clock }, tenant.userId, { productId: product.id, format: 'csv', dryRun: false, fileKey, fileSize: file.length });
  return { tenant, productId: product.id, importId: job.importId, fileKey };
}

/** A tenant's product and a queued import of `ROWS` licenses, each with its own customer, an expiry and one site. */
async function queuedImport(): Promise<{ tenant: Tenant; productId: string; importId: string; keys: string[]; fileKey: string; fileSize: number }> {
  const run = newUploadId().slice(-6);
  const keys = Array.from({ length: ROWS }, (_, i) => `RESUME-${run}-${String(i).padStart(4, '0')}`);
  const lines = keys.map((key, i) => `${key},buyer${i}.${run}@example.com,active,2,2099-01-01T00:00:00Z,site${i}.${run}.example.org`);
  const file = `license_key,customer_email,status,seats,expires_at,domains\n${lines.join('\n')}\n`;
  return { ...(await queuedFile(file)), keys, fileSize: Buffer.byteLength(file) };
}

/** Every row imported exactly once: the import's counts, the tenant's license and customer totals, and each key's seat. */
async function expectImportedOnce(tenant: Tenant, importId: string, keys: string[]) {
  const job = (await tenant.get(`/api/imports/${importId}`)).body;
  expect(job).toMatchObject({ status: 'done', counts: { licenses: ROWS, customers: ROWS, activations: ROWS, skipped: 0 }, errorCount: 0, processedRows: ROWS });
  expect((await tenant.get('/api/licenses')).body.pagination.total).toBe(ROWS);
  expect((await tenant.get('/api/customers')).body.pagination.total).toBe(ROWS);
  for (const key of [keys[0]!, keys[ROWS - 1]!]) {
    const res = await plugin().post('/v1/licenses/validate', { license_key: key }, { origin: null });
    expect([key, res.body.license?.activatedCount]).toEqual([key, 1]);
  }
}

describe('an import stopped part way', () => {
  it('queues the rest when its invocation nears its end, and the next invocation goes on from the cursor', async () => {
    const { tenant, importId, keys } = await queuedImport();
    const first = worker();
    let batches = 0;
    // Three batches' worth of time, then less than the hand-over margin.
    const endingSoon = { ...lambdaContext('importWorker', 300), getRemainingTimeInMillis: () => (++batches > 3 ? 1_000 : 300_000) };
    expect(await first.run(importId, endingSoon)).toEqual({ batchItemFailures: [] });
    expect(first.sent).toEqual([importId]);
    const halfway = (await tenant.get(`/api/imports/${importId}`)).body;
    expect(halfway.status).toBe('running');
    expect(halfway.processedRows).toBeGreaterThan(0);
    expect(halfway.processedRows).toBeLessThan(ROWS);
    expect(halfway.counts.licenses).toBe(halfway.processedRows);

    const next = worker();
    expect(await next.run(importId)).toEqual({ batchItemFailures: [] });
    expect(next.sent).toEqual([]);
    await expectImportedOnce(tenant, importId, keys);
  });

  it('goes on from its cursor after its worker died between batches, writing no row twice', async () => {
    const { tenant, importId, keys } = await queuedImport();
    const dying = worker(workerData(4));
    const errors: string[] = [];
    const printed = vi.spyOn(console, 'error').mockImplementation((line: unknown) => void errors.push(String(line)));
    // The message is reported failed, with an error log: the queue gives it back.
    const result = await dying.run(importId).finally(() => printed.mockRestore());
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: `msg-${importId}` }] });
    expect(errors.join('\n')).toContain('the worker died here');
    const stopped = (await tenant.get(`/api/imports/${importId}`)).body;
    expect(stopped).toMatchObject({ status: 'running', counts: { licenses: stopped.processedRows } });
    expect(stopped.processedRows).toBeGreaterThan(0);

    expect(await worker().run(importId)).toEqual({ batchItemFailures: [] });
    await expectImportedOnce(tenant, importId, keys);
  });

  it('reads again and decides again when keys and an e-mail it read as free are taken before it writes them', async () => {
    const { tenant, importId, keys } = await queuedImport();
    const run = keys[0]!.split('-')[1]!;
    const other = await newTenant();
    const otherProduct = await newProduct(other);
    // Taken once the worker has read them: a key in its first batch and one further on (read ahead), and an e-mail.
    const takeThem = async () => {
      const file = `license_key,customer_email\n${keys[5]},first@example.com\n${keys[60]},second@example.com\n`;
      expect((await importFile(other, { productId: otherProduct.id, format: 'csv' }, file)).counts.licenses).toBe(2);
      expect((await tenant.post('/api/customers', { email: `buyer70.${run}@example.com` })).status).toBe(201);
    };
    expect(await worker(workerData(Infinity, takeThem)).run(importId)).toEqual({ batchItemFailures: [] });

    const job = (await tenant.get(`/api/imports/${importId}`)).body;
    expect(job).toMatchObject({ status: 'done', counts: { licenses: ROWS - 2, customers: ROWS - 3, activations: ROWS - 2, skipped: 2 }, processedRows: ROWS });
    expect((await tenant.get('/api/licenses')).body.pagination.total).toBe(ROWS - 2);
    expect((await tenant.get('/api/customers')).body.pagination.total).toBe(ROWS - 2);
    const taken = await plugin().post('/v1/licenses/validate', { license_key: keys[60] }, { origin: null });
    expect(taken.body.license?.activatedCount).toBe(0);
    const listed = (await tenant.get(`/api/customers?search=${encodeURIComponent(`buyer70.${run}@example.com`)}`)).body;
    expect(listed.pagination.total).toBe(1);
    // The other account's import waits for one of the deployment's two import workers.
  }, 120_000);

  it('is written once when two workers are given it at the same time', async () => {
    const { tenant, importId, keys } = await queuedImport();
    const results = await Promise.all([worker().run(importId), worker().run(importId)]);
    expect(results).toEqual([{ batchItemFailures: [] }, { batchItemFailures: [] }]);
    await expectImportedOnce(tenant, importId, keys);
  });
});

describe('an import of a large file', () => {
  it('reads its file once, however many invocations it takes: the ones that go on read only their prepared rows', async () => {
    const { tenant, importId, keys, fileKey, fileSize } = await queuedImport();
    const storage = countingStorage();
    let invocations = 0;
    for (let queued = [importId]; queued.length > 0; invocations++) {
      expect(invocations).toBeLessThan(ROWS);
      // Each invocation has time for one batch, then hands over.
      let wrote = false;
      const next = worker(workerData(Infinity, undefined, () => (wrote = true)), storage.s3);
      const oneBatch = { ...lambdaContext('importWorker', 120), getRemainingTimeInMillis: () => (wrote ? 1_000 : 120_000) };
      expect(await next.run(importId, oneBatch)).toEqual({ batchItemFailures: [] });
      queued = next.sent;
    }
    expect(invocations).toBeGreaterThan(3);
    await expectImportedOnce(tenant, importId, keys);
    // The file once; the rest only the prepared rows (one chunk of them here, read once per invocation).
    expect(storage.read.get(fileKey)).toBe(fileSize);
    const prepared = [...storage.read].filter(([key]) => key.startsWith(`${fileKey}.rows/`));
    expect(prepared.map(([key]) => key)).toEqual([`${fileKey}.rows/000000`]);
  });
});

describe('a license with more activations than a transaction holds', () => {
  it('is written in parts that go on after the worker died between them, each activation once', async () => {
    const run = newUploadId().slice(-6);
    const sites = Array.from({ length: 300 }, (_, i) => `site${i}.${run}.example.com`);
    const rows = [
      `MANY-${run}-first,first@example.com,active,1,one.${run}.example.com`,
      `MANY-${run}-agency,agency@example.com,active,300,${sites.join(';')}`,
      ...Array.from({ length: 20 }, (_, i) => `MANY-${run}-after${i},after${i}@example.com,active,1,after${i}.${run}.example.com`),
    ];
    const { tenant, importId } = await queuedFile(`license_key,customer_email,status,seats,domains\n${rows.join('\n')}\n`);
    // The first row's batch, the license's first part and one more; then the worker dies.
    const dying = worker(workerData(3));
    const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect((await dying.run(importId).finally(() => printed.mockRestore())).batchItemFailures).toHaveLength(1);
    const stopped = (await tenant.get(`/api/imports/${importId}`)).body;
    expect(stopped).toMatchObject({ status: 'running', processedRows: 1, counts: { licenses: 2 } });
    // What was written of it holds: its count is the activations written so far.
    const part = (await plugin().post('/v1/licenses/validate', { license_key: `MANY-${run}-agency` }, { origin: null })).body.license;
    expect(part.activatedCount).toBe(stopped.counts.activations - 1);
    expect(part.activatedCount).toBeGreaterThan(0);
    expect(part.activatedCount).toBeLessThan(300);

    expect(await worker().run(importId)).toEqual({ batchItemFailures: [] });
    const job = (await tenant.get(`/api/imports/${importId}`)).body;
    expect(job).toMatchObject({ status: 'done', counts: { licenses: 22, customers: 22, activations: 321, skipped: 0 }, errorCount: 0, processedRows: 22 });
    const agency = (await tenant.get(`/api/licenses?search=MANY-${run}-agency`)).body.items[0];
    expect(agency).toMatchObject({ seats: 300, activatedCount: 300 });
    const activations = (await tenant.get(`/api/activations?license_id=${agency.id}&per_page=100`)).body;
    expect(activations.pagination.total).toBe(300);
    const last = await plugin().post('/v1/licenses/validate', { license_key: `MANY-${run}-agency`, domain: sites[299] }, { origin: null });
    expect(last.body.valid, last.text).toBe(true);
  });
});

describe('an import that makes no progress for 15 minutes', () => {
  it('ends failed with its reason, and the account can import again', async () => {
    // The worker's clock is 16 minutes behind: what it writes is that old when the management API reads it.
    const behind = { now: () => new Date(Date.now() - 16 * 60_000) };
    const { tenant, importId, productId } = await queuedFile('license_key,customer_email\nSTALL-kept-000001,stall@example.com\n', behind);
    // Every batch refused: the run fails, and its reason is kept.
    const failing = worker(workerData(0), createStorageClient(config), behind);
    const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect((await failing.run(importId).finally(() => printed.mockRestore())).batchItemFailures).toHaveLength(1);

    const job = (await tenant.get(`/api/imports/${importId}`)).body;
    expect(job).toMatchObject({ status: 'failed', finishedAt: expect.any(String) });
    expect(job.failure).toBe('The import made no progress for 15 minutes: its worker failed (the worker died here)');
    const next = await tenant.request('POST', `/api/imports?productId=${productId}&format=csv`, { rawBody: 'license_key,customer_email\nSTALL-kept-000002,stall@example.com\n', headers: { 'content-type': 'text/csv' } });
    expect(next.status, next.text).toBe(202);
    // A worker given the stalled import again does nothing.
    expect(await worker().run(importId)).toEqual({ batchItemFailures: [] });
    expect((await tenant.get(`/api/imports/${importId}`)).body.status).toBe('failed');
  });

  it('is ended by the worker its message comes back to, when nobody looked meanwhile', async () => {
    const behind = { now: () => new Date(Date.now() - 16 * 60_000) };
    const { tenant, importId } = await queuedFile('license_key,customer_email\nSTALL-kept-000003,stall@example.com\n', behind);
    expect(await worker().run(importId)).toEqual({ batchItemFailures: [] });
    const job = (await tenant.get(`/api/imports/${importId}`)).body;
    expect(job).toMatchObject({ status: 'failed', failure: 'The import made no progress for 15 minutes', counts: { licenses: 0 } });
  });
});
