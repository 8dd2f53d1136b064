import { type EntityItem, EXPORT_FORMATS, type ExportFormat, transact, writeItem } from '../../platform/data/index.js';
import { type Deps, newId, NotFoundError } from '../../platform/index.js';
import type { StorageClient } from '../../platform/s3/index.js';
import { EXPORT_FILE_EXTENSIONS, exportFileKey, presignDownload } from './export-file.js';
import type { ExportQueue } from './export-queue.js';

export { EXPORT_FORMATS };

export type ExportJobDeps = Pick<Deps, 'data' | 'clock' | 'config'> & { exportQueue: ExportQueue; clients: { s3: StorageClient } };

/** Export files and their jobs are kept this long (the bucket's lifecycle rule and the job's TTL). */
export const EXPORT_RETENTION_DAYS = 7;
/** A download link is valid this long (DECISIONS §16); asking again gives a fresh one. */
export const EXPORT_LINK_SECONDS = 3600;

const EXPORT_NOT_FOUND = 'Export not found';
export const EXPORT_NOT_QUEUED = 'The export could not be started; request a new one';

/** Records an export of the whole account and queues it for the export worker. */
export async function requestExport(deps: ExportJobDeps, tenantId: string, format: ExportFormat) {
  const now = deps.clock.now();
  const exportId = newId('exp');
  const job: EntityItem<'exportJob'> = {
    exportId,
    tenantId,
    format,
    status: 'queued',
    fileKey: exportFileKey(tenantId, exportId, EXPORT_FILE_EXTENSIONS[format]),
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    ttl: Math.floor(now.getTime() / 1000) + EXPORT_RETENTION_DAYS * 86_400,
  };
  const outcome = await transact(deps.data, (tx) => ({ job: tx.exportJob.create(job).commit() }));
  if (!outcome.committed) throw outcome.unexpected();
  try {
    await deps.exportQueue.send({ exportId });
  } catch (error) {
    // Never queued, never done: the job is not left waiting for a worker that will not come. It is kept, failed, as
    // the audit entry that committed with it records it.
    await writeItem(() =>
      deps.data.entities.exportJob.patch({ exportId }).set({ status: 'failed', error: EXPORT_NOT_QUEUED, updatedAt: deps.clock.now().toISOString() }).go(),
    );
    throw error;
  }
  return toExport(job, null);
}

/** The job, with a fresh download link once the file is complete. Another tenant's, or one past its 7 days, is 404. */
export async function getExport(deps: ExportJobDeps, tenantId: string, exportId: string) {
  const { data: job } = await deps.data.entities.exportJob.get({ exportId }).go({ consistent: true });
  if (!job || job.tenantId !== tenantId || job.ttl * 1000 <= deps.clock.now().getTime()) throw new NotFoundError(EXPORT_NOT_FOUND);
  if (job.status !== 'done') return toExport(job, null);
  const fileName = `export-${job.createdAt.slice(0, 10)}-${job.exportId}.${EXPORT_FILE_EXTENSIONS[job.format]}`;
  const url = await presignDownload({ config: deps.config, s3: deps.clients.s3 }, job.fileKey, fileName, EXPORT_LINK_SECONDS);
  return toExport(job, { url, expiresAt: new Date(deps.clock.now().getTime() + EXPORT_LINK_SECONDS * 1000).toISOString() });
}

function toExport(job: EntityItem<'exportJob'>, link: { url: string; expiresAt: string } | null) {
  return {
    id: job.exportId,
    format: job.format,
    status: job.status,
    url: link?.url ?? null,
    urlExpiresAt: link?.expiresAt ?? null,
    counts: (job.counts as Record<string, number> | undefined) ?? null,
    fileSize: job.fileSize ?? null,
    error: job.error ?? null,
    createdAt: job.createdAt,
    completedAt: job.completedAt ?? null,
  };
}

export type ExportView = ReturnType<typeof toExport>;
