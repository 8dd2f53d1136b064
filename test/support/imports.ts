import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { Client } from './client.js';
import { eventually } from './licensing-fixtures.js';

/** A test file of `test/fixtures/imports/`, written from the format's own export documentation. */
export const importFixture = (name: string) => readFileSync(new URL(`../fixtures/imports/${name}`, import.meta.url), 'utf8');

/** Starts an import of `file` over HTTP and answers its id. */
export async function startImport(
  tenant: Client,
  query: { productId: string; format: string; dryRun?: boolean },
  file: string,
  contentType = 'text/csv',
): Promise<string> {
  const params = new URLSearchParams({ productId: query.productId, format: query.format, ...(query.dryRun ? { dryRun: 'true' } : {}) });
  const res = await tenant.request('POST', `/api/imports?${params}`, { rawBody: file, headers: { 'content-type': contentType } });
  expect(res.status, res.text).toBe(202);
  return res.body.id as string;
}

/** The import once its worker has ended it (`done` or `failed`). */
export async function finishedImport(tenant: Client, id: string, timeoutMs = 90_000) {
  const job = await eventually(
    async () => (await tenant.get(`/api/imports/${id}`)).body,
    (body) => body?.status === 'done' || body?.status === 'failed',
    timeoutMs,
  );
  expect(['done', 'failed'], JSON.stringify(job)).toContain(job.status);
  return job;
}

/** Imports `file` and waits for the end. */
export async function importFile(tenant: Client, query: { productId: string; format: string; dryRun?: boolean }, file: string, contentType?: string) {
  return finishedImport(tenant, await startImport(tenant, query, file, contentType));
}
