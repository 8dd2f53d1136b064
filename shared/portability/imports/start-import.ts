import { BadRequestError, type Deps, PayloadTooLargeError } from '../../platform/index.js';
import { loadLiveProduct } from '../../catalog/index.js';
import type { StorageDeps } from '../../platform/storage/index.js';
import type { ImportFormatName } from './format-names.js';
import {
  IMPORT_UPLOAD_URL_TTL_SECONDS,
  importFileKey,
  importFileSize,
  MAX_IMPORT_UPLOAD_BYTES,
  newUploadId,
  presignImportUpload,
  putImportFile,
} from './import-files.js';
import { createImportJob } from './import-jobs.js';
import type { ImportQueue } from './import-queue.js';

export type StartImportDeps = Pick<Deps, 'data' | 'clock'> & StorageDeps & { imports: ImportQueue };

/** The file of an import: sent as the request's body, or uploaded before through an upload URL. */
export type ImportFile = { bytes: Uint8Array; contentType: string } | { uploadId: string };

/** What some formats read besides the file (DECISIONS §27; the route allows each only with its format). */
export type ImportParameters = { timezone?: string; productName?: string; usersUploadId?: string };

export type StartImport = { productId: string; format: ImportFormatName; dryRun: boolean; file: ImportFile } & ImportParameters;

/** The key and size of a file uploaded through an upload URL; `name`: the parameter that named it. */
async function uploadedFile(deps: StorageDeps, tenantId: string, uploadId: string, name: string): Promise<{ key: string; size: number }> {
  const key = importFileKey(tenantId, uploadId);
  const size = await importFileSize(deps, key);
  if (size === undefined) throw new BadRequestError(`${name} names no uploaded file`);
  if (size > MAX_IMPORT_UPLOAD_BYTES) throw new PayloadTooLargeError('The uploaded file is too large');
  return { key, size };
}

/**
 * Starts an import (`POST /api/imports`, DECISIONS §16): the product must be the caller's, the file is stored (or
 * found where its upload URL put it), the import recorded as `queued` (one at a time per tenant, §20) and its message
 * sent to the worker.
 */
export async function startImport(deps: StartImportDeps, tenantId: string, input: StartImport): Promise<{ id: string }> {
  await loadLiveProduct(deps, tenantId, input.productId);
  const usersFileKey = input.usersUploadId === undefined ? undefined : (await uploadedFile(deps, tenantId, input.usersUploadId, 'usersUploadId')).key;
  let fileKey: string;
  let fileSize: number;
  if ('uploadId' in input.file) {
    ({ key: fileKey, size: fileSize } = await uploadedFile(deps, tenantId, input.file.uploadId, 'uploadId'));
  } else {
    fileKey = importFileKey(tenantId, newUploadId());
    fileSize = input.file.bytes.length;
    await putImportFile(deps, fileKey, input.file.bytes, input.file.contentType);
  }
  const job = await createImportJob(deps, tenantId, {
    productId: input.productId,
    format: input.format,
    dryRun: input.dryRun,
    fileKey,
    fileSize,
    timezone: input.timezone,
    productName: input.productName,
    usersFileKey,
  });
  await deps.imports.send(job.importId);
  return { id: job.importId };
}

/** A presigned PUT for an import file larger than a request body may be; the import is started with its `uploadId`. */
export async function createImportUploadUrl(
  deps: Pick<Deps, 'clock'> & StorageDeps,
  tenantId: string,
  fileSize: number,
): Promise<{ uploadUrl: string; uploadId: string; expiresAt: string }> {
  const uploadId = newUploadId();
  const uploadUrl = await presignImportUpload(deps, importFileKey(tenantId, uploadId), fileSize);
  const expiresAt = new Date(deps.clock.now().getTime() + IMPORT_UPLOAD_URL_TTL_SECONDS * 1000).toISOString();
  return { uploadUrl, uploadId, expiresAt };
}
