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
 * there; `beforeFirstTransaction`: runs once, when the worker has read its first rows and is about to write them.
 */
function workerData(failAfter = Infinity, beforeFirstTransaction?: () => Promise<void>) {
  const raw = new DynamoDBClient({ endpoint: inject('dynamoEndpoint'), region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  enforceKeyAccess(raw, 'importWorker');
  let transactions = 0;
  raw.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName !== 'TransactWriteItemsCommand') return next(args);
      if (++transactions > failAfter) throw new Error('the worker died here');
      if (transactions === 1) await beforeFirstTransaction?.();
      return next(args);
    },
    { step: 'initialize', name: 'dieAfterTransactions' },
  );
  return createDataService(DynamoDBDocumentClient.from(raw), config.tableName, undefined, dataModel);
}

/** A worker as the import queue feeds it; `sent` collects the imports it queues again. */
function worker(data = workerData()) {
  const sent: string[] = [];
  const handler = createImportWorkerHandler({ config, clients: { s3: createStorageClient(config) } as never, data, clock: systemClock, queue: { send: async (id) => void sent.push(id) } });
  const run = (importId: string, context: Context = lambdaContext('importWorker', 300)) =>
    handler({ Records: [{ messageId: `msg-${importId}`, body: JSON.stringify({ importId }) }] } as SQSEvent, context);
  return { run, sent };
}

/** A tenant's product and a queued import of `ROWS` licenses, each with its own customer, an expiry and one site. */
async function queuedImport(): Promise<{ tenant: Tenant; productId: string; importId: string; keys: string[] }> {
  const tenant = await newTenant();
  const product = await newProduct(tenant);
  const run = product.id.slice(-6);
  const keys = Array.from({ length: ROWS }, (_, i) => `RESUME-${run}-${String(i).padStart(4, '0')}`);
  const lines = keys.map((key, i) => `${key},buyer${i}.${run}@example.com,active,2,2099-01-01T00:00:00Z,site${i}.${run}.example.org`);
  const file = `license_key,customer_email,status,seats,expires_at,domains\n${lines.join('\n')}\n`;
  const fileKey = importFileKey(tenant.userId, newUploadId());
  const storage = { config, clients: { s3: createStorageClient(config) } };
  await putImportFile(storage, fileKey, Buffer.from(file), 'text/csv');
  const job = await createImportJob({ data: workerData(), clock: systemClock }, tenant.userId, { productId: product.id, format: 'csv', dryRun: false, fileKey, fileSize: file.length });
  return { tenant, productId: product.id, importId: job.importId, keys };
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
  });

  it('is written once when two workers are given it at the same time', async () => {
    const { tenant, importId, keys } = await queuedImport();
    const results = await Promise.all([worker().run(importId), worker().run(importId)]);
    expect(results).toEqual([{ batchItemFailures: [] }, { batchItemFailures: [] }]);
    await expectImportedOnce(tenant, importId, keys);
  });
});
