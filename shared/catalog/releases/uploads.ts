import { BadRequestError, type Deps } from '../../platform/index.js';
import { loadLiveProduct } from '../products/products.js';
import { presignUpload, putReleaseFile, type StorageDeps } from '../../platform/storage/index.js';
import { isZipArchive, newReleaseFilePath, sanitizeFileName, UPLOAD_URL_TTL_SECONDS } from './file-rules.js';
import type { UploadForm } from './upload-form.js';
import { VERSION_PATTERN, VERSION_RULE } from './versions.js';

type UploadDeps = Pick<Deps, 'data' | 'clock'> & StorageDeps;

export type StoredFile = { filePath: string; fileName: string; fileSize: number };

/** Stores a ZIP uploaded through the API under the product's prefix; nothing is stored unless every check passes. */
export async function storeUploadedFile(deps: UploadDeps, tenantId: string, productId: string, form: UploadForm): Promise<StoredFile> {
  await loadLiveProduct(deps, tenantId, productId);
  if (form.version !== undefined && !VERSION_PATTERN.test(form.version)) {
    throw new BadRequestError(`version: ${VERSION_RULE}`);
  }
  if (!isZipArchive(form.file.bytes)) throw new BadRequestError('file: must be a ZIP archive');
  const fileName = sanitizeFileName(form.file.name);
  const filePath = newReleaseFilePath(tenantId, productId, fileName);
  await putReleaseFile(deps, filePath, form.file.bytes, form.version === undefined ? {} : { version: form.version });
  return { filePath, fileName, fileSize: form.file.bytes.length };
}

/** A presigned PUT for a file too large to pass through the API; the release is created from `filePath` afterwards. */
export async function createUploadUrl(
  deps: UploadDeps,
  tenantId: string,
  productId: string,
  input: { fileName: string; fileSize: number },
): Promise<{ uploadUrl: string; filePath: string; fileName: string; expiresAt: string }> {
  await loadLiveProduct(deps, tenantId, productId);
  const fileName = sanitizeFileName(input.fileName);
  const filePath = newReleaseFilePath(tenantId, productId, fileName);
  const uploadUrl = await presignUpload(deps, filePath, input.fileSize, UPLOAD_URL_TTL_SECONDS);
  const expiresAt = new Date(deps.clock.now().getTime() + UPLOAD_URL_TTL_SECONDS * 1000).toISOString();
  return { uploadUrl, filePath, fileName, expiresAt };
}
