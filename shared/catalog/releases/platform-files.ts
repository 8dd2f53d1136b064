import { BadRequestError, ConflictError, type Deps, NotFoundError, PayloadTooLargeError } from '../../platform/index.js';
import { type EntityItem, PLATFORMS, transact } from '../../platform/data/index.js';
import { inspectReleaseFile, type StorageDeps } from '../../platform/storage/index.js';
import { loadLiveProduct } from '../products/products.js';
import { isProductFilePath, MAX_DIRECT_UPLOAD_BYTES, sanitizeFileName } from './file-rules.js';

export { PLATFORMS };
export type Platform = (typeof PLATFORMS)[number];

type ReleaseItem = EntityItem<'release'>;
export type PlatformFileItem = NonNullable<ReleaseItem['platformFiles']>[number];

/** A SHA-512 digest in base64 as electron-updater writes it: 64 bytes, 88 characters with padding. */
export const SHA512_BASE64_PATTERN = /^[A-Za-z0-9+/]{86}==$/;
export const SHA512_RULE = 'must be the SHA-512 of the file in base64 (64 bytes, 88 characters)';
export const MAX_SIGNATURE_LENGTH = 4096;

export type PlatformFileInput = { platform: Platform; fileName: string; fileSize: number; filePath: string; sha512: string; signature?: string };

export function toPlatformFile(file: PlatformFileItem) {
  return {
    platform: file.platform,
    fileName: file.fileName,
    fileSize: file.fileSize,
    filePath: file.filePath,
    sha512: file.sha512,
    signature: file.signature ?? null,
    createdAt: file.createdAt,
  };
}
export type PlatformFile = ReturnType<typeof toPlatformFile>;

/** Rounds of "the release changed between our read and our write" before answering 409. */
const WRITE_ROUNDS = 5;
const RELEASE_NOT_FOUND = 'Release not found';

/**
 * Adds a desktop file to a release (DECISIONS §26), replacing the platform's file when it has one. The file must be one
 * of this product's uploads (an upload URL's `filePath`), stored, of the size given and within the upload limit (413,
 * as §3); its `sha512` is the vendor's, which electron-updater checks on every download (the service does not read the
 * file: up to 500 MB would not fit a request). The release's list and the product's `releasesChangedAt` (which tells
 * every container's update feeds their cached releases are stale) change in one transaction, conditioned on the
 * release being as read and the product live.
 */
export async function addPlatformFile(
  deps: Pick<Deps, 'data' | 'clock'> & StorageDeps,
  tenantId: string,
  productId: string,
  releaseId: string,
  input: PlatformFileInput,
): Promise<PlatformFile> {
  if (input.fileSize > MAX_DIRECT_UPLOAD_BYTES) {
    throw new PayloadTooLargeError(`fileSize: must be at most ${MAX_DIRECT_UPLOAD_BYTES / (1024 * 1024)} MB`);
  }
  await loadLiveProduct(deps, tenantId, productId);
  const loadRelease = async () => {
    const { data: release } = await deps.data.entities.release.get({ releaseId }).go({ consistent: true });
    if (!release || release.tenantId !== tenantId || release.productId !== productId) throw new NotFoundError(RELEASE_NOT_FOUND);
    return release;
  };
  await loadRelease();
  if (!isProductFilePath(input.filePath, tenantId, productId)) {
    throw new BadRequestError('filePath: must be a path returned by an upload URL for this product');
  }
  await checkStoredFile(deps, input);
  for (let round = 0; round < WRITE_ROUNDS; round++) {
    const release = await loadRelease();
    const now = deps.clock.now().toISOString();
    const file: PlatformFileItem = {
      platform: input.platform,
      filePath: input.filePath,
      fileName: sanitizeFileName(input.fileName),
      fileSize: input.fileSize,
      sha512: input.sha512,
      ...(input.signature !== undefined && { signature: input.signature }),
      createdAt: now,
    };
    const platformFiles = [...(release.platformFiles ?? []).filter((other) => other.platform !== input.platform), file];
    platformFiles.sort((a, b) => PLATFORMS.indexOf(a.platform) - PLATFORMS.indexOf(b.platform));
    const outcome = await transact(deps.data, (tx) => ({
      release: tx.release
        .patch({ releaseId })
        .set({ platformFiles, updatedAt: now })
        .where(({ updatedAt }, { eq }) => eq(updatedAt, release.updatedAt))
        .commit(),
      product: tx.product
        .patch({ productId })
        .set({ releasesChangedAt: now })
        .where(({ deletedAt }, { notExists }) => notExists(deletedAt))
        .commit(),
    }));
    if (outcome.committed) return toPlatformFile(file);
    if (outcome.refused('product')) throw new NotFoundError('Product not found');
    // The release changed meanwhile (another file, an edit): read it again.
  }
  throw new ConflictError('Release was changed concurrently; retry');
}

/** The upload is there, and of the size the vendor named. */
async function checkStoredFile(deps: StorageDeps, input: PlatformFileInput): Promise<void> {
  const stored = await inspectReleaseFile(deps, input.filePath, 0);
  if (!stored) throw new BadRequestError('filePath: no uploaded file at this path');
  if (stored.size !== input.fileSize) throw new BadRequestError('fileSize: does not match the uploaded file');
}
