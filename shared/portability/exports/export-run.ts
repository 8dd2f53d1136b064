import { randomUUID } from 'node:crypto';
import { type EntityItem, writeItem } from '../../platform/data/index.js';
import type { Deps } from '../../platform/index.js';
import { ENCODERS } from './export-formats.js';
import {
  abortUpload,
  completeUpload,
  dropStash,
  PART_BYTES,
  stash,
  startUpload,
  unstash,
  uploadPart,
  type ExportFileDeps,
  type UploadedPart,
} from './export-file.js';
import { EXPORT_PAGE_SIZE, SOURCES } from './export-sources.js';
import type { ZipState } from './zip-stream.js';

export type ExportRunDeps = Pick<Deps, 'data' | 'clock'> & ExportFileDeps;

/**
 * Where a job's worker is, saved on the job item after every part it uploads and when it stops: the record type
 * it reached (`stage`, an index into its format's types), the index cursor within it, whether that type's file has
 * been begun, the multipart upload and its parts, the bytes stashed in S3 that are not a part yet, the zip's state
 * and the records written so far. Everything the next invocation needs to write on exactly where this one stopped.
 */
export type ExportProgress = {
  stage: number;
  cursor: string | null;
  begun: boolean;
  uploadId: string;
  parts: UploadedPart[];
  stashed: number;
  /** Bytes of the file so far, stashed bytes included. */
  written: number;
  zip?: ZipState;
  counts: Record<string, number>;
};

export type RunOptions = {
  /** True when the invocation should stop and hand over (its time is nearly up). */
  shouldStop: () => boolean;
  /** How long one worker holds the job before another may take it over: longer than an invocation. */
  leaseMs: number;
  /** Tests make parts and batches small to see several. */
  partBytes?: number;
  pageSize?: number;
};

/** `done`: the file is complete; `continue`: stopped on time, to be continued by another invocation; `skipped`: nothing to do here. */
export type RunOutcome = 'done' | 'continue' | 'skipped';

type Job = EntityItem<'exportJob'>;

/**
 * Carries an export job forward: reads the tenant's records batch by batch, in file order, encodes them and sends
 * them to S3 as the parts of one multipart upload, saving its place after each part, and completes the file at the
 * end. Another invocation (a redelivered message, or the one this one hands over to) resumes from the saved place;
 * what was read after it is read again. Only the holder of the job's lease writes: a second worker skips it.
 */
export async function runExport(deps: ExportRunDeps, exportId: string, options: RunOptions): Promise<RunOutcome> {
  const job = await claim(deps, exportId, options.leaseMs);
  if (!job) return 'skipped';
  const encoder = ENCODERS[job.format];
  const token = job.leaseToken!;
  const progress: ExportProgress =
    (job.progress as ExportProgress | undefined) ?? {
      stage: 0,
      cursor: null,
      begun: false,
      uploadId: await startUpload(deps, job.fileKey, encoder.contentType),
      parts: [],
      stashed: 0,
      written: 0,
      zip: encoder.start(new Date(job.createdAt)),
      counts: {},
    };
  const partBytes = options.partBytes ?? PART_BYTES;
  let pending: Buffer[] = progress.stashed > 0 ? [await unstash(deps, job.fileKey)] : [];
  let pendingBytes = progress.stashed;
  const add = (bytes: Buffer) => {
    pending.push(bytes);
    pendingBytes += bytes.length;
    progress.written += bytes.length;
  };
  const flush = async () => {
    const part = await uploadPart(deps, job.fileKey, progress.uploadId, progress.parts.length + 1, Buffer.concat(pending));
    progress.parts.push(part);
    pending = [];
    pendingBytes = 0;
  };

  while (progress.stage < encoder.types.length) {
    const type = encoder.types[progress.stage]!;
    if (!progress.begun) {
      add(encoder.begin(type, progress.zip));
      progress.begun = true;
    }
    const batch = await SOURCES[type](deps, job.tenantId, progress.cursor, { licenseExtras: job.format === 'csv', pageSize: options.pageSize ?? EXPORT_PAGE_SIZE });
    add(encoder.batch(type, batch, progress.zip));
    progress.counts[type] = (progress.counts[type] ?? 0) + batch.records.length;
    progress.cursor = batch.next;
    if (batch.next === null) {
      add(encoder.end(type, progress.zip));
      progress.stage += 1;
      progress.begun = false;
    }
    if (pendingBytes >= partBytes) {
      await flush();
      progress.stashed = 0;
      if (!(await save(deps, job, token, progress))) return 'skipped';
    }
    if (progress.stage < encoder.types.length && options.shouldStop()) {
      if (pendingBytes > 0) await stash(deps, job.fileKey, Buffer.concat(pending));
      progress.stashed = pendingBytes;
      return (await save(deps, job, token, progress, { leaseUntil: 0 })) ? 'continue' : 'skipped';
    }
  }
  add(encoder.finish(progress.zip));
  await flush();
  await completeUpload(deps, job.fileKey, progress.uploadId, progress.parts);
  const completed = await complete(deps, job, token, progress);
  await dropStash(deps, job.fileKey);
  return completed ? 'done' : 'skipped';
}

/** Takes the job for this invocation: queued, or running with no live lease. Done, failed or held: `undefined`. */
async function claim(deps: ExportRunDeps, exportId: string, leaseMs: number): Promise<Job | undefined> {
  const now = deps.clock.now();
  const leaseToken = randomUUID();
  const result = await writeItem(() =>
    deps.data.entities.exportJob
      .patch({ exportId })
      .set({ status: 'running', leaseToken, leaseUntil: now.getTime() + leaseMs, updatedAt: now.toISOString() })
      .where(({ status, leaseUntil }, { eq, notExists, lt }) =>
        `(${eq(status, 'queued')} OR ${eq(status, 'running')}) AND (${notExists(leaseUntil)} OR ${lt(leaseUntil, now.getTime())})`,
      )
      .go({ response: 'all_new' }),
  );
  return result.written ? (result.value.data as Job) : undefined;
}

/** Saves the place reached, on the condition that this invocation still holds the lease. */
async function save(deps: ExportRunDeps, job: Job, token: string, progress: ExportProgress, extra: { leaseUntil?: number } = {}): Promise<boolean> {
  const result = await writeItem(() =>
    deps.data.entities.exportJob
      .patch({ exportId: job.exportId })
      .set({ progress, updatedAt: deps.clock.now().toISOString(), ...extra })
      .where(({ leaseToken }, { eq }) => eq(leaseToken, token))
      .go(),
  );
  return result.written;
}

/** Marks the job done with what it wrote, on the condition that this invocation still holds the lease. */
async function complete(deps: ExportRunDeps, job: Job, token: string, progress: ExportProgress): Promise<boolean> {
  const now = deps.clock.now().toISOString();
  const result = await writeItem(() =>
    deps.data.entities.exportJob
      .patch({ exportId: job.exportId })
      .set({ status: 'done', counts: progress.counts, fileSize: progress.written, updatedAt: now, completedAt: now })
      .remove(['progress', 'leaseToken', 'leaseUntil'])
      .where(({ leaseToken }, { eq }) => eq(leaseToken, token))
      .go(),
  );
  return result.written;
}

/**
 * Marks a job failed once its worker has given up (its message's last receive failed too): the upload is aborted,
 * and `GET /api/exports/{id}` says so. A job already done is left as it is.
 */
export async function failExport(deps: ExportRunDeps, exportId: string, error: string): Promise<void> {
  const { data: job } = await deps.data.entities.exportJob.get({ exportId }).go({ consistent: true });
  if (!job || job.status === 'done' || job.status === 'failed') return;
  const progress = job.progress as ExportProgress | undefined;
  if (progress) await abortUpload(deps, job.fileKey, progress.uploadId);
  const now = deps.clock.now().toISOString();
  await writeItem(() =>
    deps.data.entities.exportJob
      .patch({ exportId })
      .set({ status: 'failed', error, updatedAt: now, completedAt: now })
      .remove(['progress', 'leaseToken', 'leaseUntil'])
      .where(({ status }, { eq }) => eq(status, job.status))
      .go(),
  );
}
