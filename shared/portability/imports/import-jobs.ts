import { type EntityItem, transact } from '../../platform/data/index.js';
import { type Deps, newId, NotFoundError, type Page, pageOf } from '../../platform/index.js';
import type { ImportFormatName } from './format-names.js';

export type ImportJobItem = EntityItem<'importJob'>;
export type ImportErrorItem = EntityItem<'importError'>;

/** DECISIONS §16: at most this many bad rows are listed (all are counted). */
export const LISTED_ERRORS = 100;

/** An import as `GET /api/imports/{id}` shows it: DECISIONS §16's fields, plus its target and progress. */
export function toImport(job: ImportJobItem, errors: ImportErrorItem[]) {
  return {
    id: job.importId,
    status: job.status,
    dryRun: job.dryRun,
    productId: job.productId,
    format: job.format,
    counts: { licenses: job.licenses, customers: job.customers, activations: job.activations, skipped: job.skipped },
    errors: errors.map((error) => ({ row: error.row, message: error.message })),
    /** Bad rows in all; `errors` lists the first 100. */
    errorCount: job.errorCount,
    /** The file's rows once the worker has read it, and how many of them are done. */
    rows: job.rows ?? null,
    processedRows: job.cursor,
    failure: job.failure ?? null,
    createdAt: job.createdAt,
    finishedAt: job.finishedAt ?? null,
  };
}
export type Import = ReturnType<typeof toImport>;

export type NewImport = { productId: string; format: ImportFormatName; dryRun: boolean; fileKey: string; fileSize: number };

/** Records a queued import of a file already stored under `fileKey`. */
export async function createImportJob(deps: Pick<Deps, 'data' | 'clock'>, tenantId: string, input: NewImport): Promise<ImportJobItem> {
  const now = deps.clock.now().toISOString();
  const job: ImportJobItem = {
    importId: newId('imp'),
    tenantId,
    ...input,
    status: 'queued',
    cursor: 0,
    licenses: 0,
    customers: 0,
    activations: 0,
    skipped: 0,
    errorCount: 0,
    createdAt: now,
    updatedAt: now,
  };
  const outcome = await transact(deps.data, (tx) => ({ job: tx.importJob.create(job).commit() }));
  if (!outcome.committed) throw outcome.unexpected();
  return job;
}

export async function readImportJob(deps: Pick<Deps, 'data'>, importId: string): Promise<ImportJobItem | undefined> {
  const { data } = await deps.data.entities.importJob.get({ importId }).go({ consistent: true });
  return data ?? undefined;
}

/** The bad rows kept for an import, in file order. */
export async function importErrors(deps: Pick<Deps, 'data'>, importId: string): Promise<ImportErrorItem[]> {
  const { data } = await deps.data.entities.importError.query.byImport({ importId }).go({ limit: LISTED_ERRORS, consistent: true });
  return data;
}

/** A tenant's import with its bad rows; another tenant's is as unknown as a missing one. */
export async function getImport(deps: Pick<Deps, 'data'>, tenantId: string, importId: string): Promise<Import> {
  const job = await readImportJob(deps, importId);
  if (!job || job.tenantId !== tenantId) throw new NotFoundError('Import not found');
  return toImport(job, await importErrors(deps, importId));
}

/** A tenant's imports, newest first (without their bad rows: `GET /api/imports/{id}` lists those). */
export async function listImports(deps: Pick<Deps, 'data'>, tenantId: string, page: number, perPage: number): Promise<Page<Import>> {
  const { data } = await deps.data.entities.importJob.query.byTenant({ tenantId }).go({ order: 'desc', pages: 'all' });
  return pageOf(
    data.slice((page - 1) * perPage, page * perPage).map((job) => toImport(job, [])),
    page,
    perPage,
    data.length,
  );
}
