import { expect } from 'vitest';
import { eventually, type Tenant } from './licensing-fixtures.js';

/** Starts an account export over HTTP, waits for its worker to finish it, and fetches the file by its presigned link. */
export async function finishedExport(tenant: Tenant, format: 'jsonl' | 'csv') {
  const started = await tenant.post('/api/exports', { format });
  expect(started.status, started.text).toBe(202);
  expect(started.body).toMatchObject({ id: expect.stringMatching(/^exp_/), format, status: 'queued', url: null });
  const done = await eventually(
    async () => (await tenant.get(`/api/exports/${started.body.id}`)).body,
    (job) => job.status === 'done' || job.status === 'failed',
    30_000,
  );
  expect(done.status, JSON.stringify(done)).toBe('done');
  const file = await fetch(done.url);
  expect(file.status).toBe(200);
  return { job: done, bytes: Buffer.from(await file.arrayBuffer()), disposition: file.headers.get('content-disposition') };
}
