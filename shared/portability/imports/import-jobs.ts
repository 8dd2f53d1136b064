import { type EntityItem, transact } from '../../platform/data/index.js';
import { ConflictError, type Deps, newId, NotFoundError, type Page, pageOf } from '../../platform/index.js';
import type { ImportFormatName } from './format-names.js';
import { endIfStalled, freeStaleSlot } from './import-ends.js';

export type ImportJobItem = EntityItem<'importJob'>;
export type ImportErrorItem = EntityItem<'importError'>;
export type ImportWarningItem = EntityItem<'importWarning'>;

/** DECISIONS §16: at most this many bad rows are listed (all are counted); as many warnings. */
export const LISTED_ERRORS = 100;

/** An import as `GET /api/imports/{id}` shows it: DECISIONS §16's fields, plus its target, progress and warnings (§27). */
export function toImport(job: ImportJobItem, errors: ImportErrorItem[], warnings: ImportWarningItem[]) {
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
    warnings: warnings.map((warning) => ({ row: warning.row, message: warning.message })),
    /** Rows imported with a warning or left out for a reason, in all; `warnings` lists the first 100. */
    warningCount: job.warningCount ?? 0,
    /** The file's rows once the worker has read it, and how many of them are done. */
    rows: job.rows ?? null,
    processedRows: job.cursor,
    failure: job.failure ?? null,
    createdAt: job.createdAt,
    finishedAt: job.finishedAt ?? null,
  };
}
export type Import = ReturnType<typeof toImport>;

export type NewImport = {
  productId: string;
  format: ImportFormatName;
  dryRun: boolean;
  fileKey: string;
  fileSize: number;
  timezone?: string;
  productName?: string;
  usersFileKey?: string;
};

/**
 * Records a queued import of a file already stored under `fileKey`, holding the tenant's one import slot
 * (DECISIONS §20): while another import of the tenant is queued or running, 409. A slot left by an import that has
 * ended, or that has stalled (which ends it), is taken over.
 */
export async function createImportJob(deps: Pick<Deps, 'data' | 'clock'>, tenantId: string, input: NewImport): Promise<ImportJobItem> {
  for (let attempt = 0; attempt < 2; attempt++) {
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
      warningCount: 0,
      createdAt: now,
      updatedAt: now,
    };
    const outcome = await transact(deps.data, (tx) => ({
      slot: tx.importSlot.create({ tenantId, importId: job.importId, createdAt: now }).commit(),
      job: tx.importJob.create(job).commit(),
    }));
    if (outcome.committed) return job;
    if (!outcome.refused('slot')) throw outcome.unexpected();
    if (!(await freeStaleSlot(deps, tenantId))) break;
  }
  throw new ConflictError('An import is already running');
}

export async function readImportJob(deps: Pick<Deps, 'data'>, importId: string): Promise<ImportJobItem | undefined> {
  const { data } = await deps.data.entities.importJob.get({ importId }).go({ consistent: true });
  return data ?? undefined;
}

/** The bad rows and the warnings kept for an import, each in file order. */
export async function importNotes(deps: Pick<Deps, 'data'>, importId: string): Promise<{ errors: ImportErrorItem[]; warnings: ImportWarningItem[] }> {
  const [errors, warnings] = await Promise.all([
    deps.data.entities.importError.query.byImport({ importId }).go({ limit: LISTED_ERRORS, consistent: true }),
    deps.data.entities.importWarning.query.byImport({ importId }).go({ limit: LISTED_ERRORS, consistent: true }),
  ]);
  return { errors: errors.data, warnings: warnings.data };
}

/** A tenant's import with its bad rows and warnings; another tenant's is as unknown as a missing one. A stalled one ends here. */
export async function getImport(deps: Pick<Deps, 'data' | 'clock'>, tenantId: string, importId: string): Promise<Import> {
  const read = await readImportJob(deps, importId);
  if (!read || read.tenantId !== tenantId) throw new NotFoundError('Import not found');
  const job = await endIfStalled(deps, read);
  const { errors, warnings } = await importNotes(deps, importId);
  return toImport(job, errors, warnings);
}

/** A tenant's imports, newest first (without their rows' notes: `GET /api/imports/{id}` lists those). */
export async function listImports(deps: Pick<Deps, 'data' | 'clock'>, tenantId: string, page: number, perPage: number): Promise<Page<Import>> {
  const { data } = await deps.data.entities.importJob.query.byTenant({ tenantId }).go({ order: 'desc', pages: 'all' });
  const shown = await Promise.all(data.slice((page - 1) * perPage, page * perPage).map((job) => endIfStalled(deps, job)));
  return pageOf(
    shown.map((job) => toImport(job, [], [])),
    page,
    perPage,
    data.length,
  );
}
