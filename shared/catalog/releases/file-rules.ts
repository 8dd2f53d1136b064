import { randomBase32 } from '../../platform/index.js';
import { RELEASE_FILES_ROOT } from '../../platform/storage/index.js';

/**
 * Largest release file accepted through the API itself; larger files go straight to storage by upload URL. A
 * multipart body reaches Lambda base64-encoded, a third larger, inside an event Lambda refuses over 6 MiB: 4 MiB
 * of file is what fits with room for the headers (docs/api.md).
 */
export const MAX_API_UPLOAD_BYTES = 4 * 1024 * 1024;
/** The upload's whole body: the file and its multipart envelope (boundaries, part headers, the `version` field). */
export const MAX_API_UPLOAD_BODY_BYTES = MAX_API_UPLOAD_BYTES + 64 * 1024;
/** Largest release file accepted by upload URL. */
export const MAX_DIRECT_UPLOAD_BYTES = 500 * 1024 * 1024;
export const UPLOAD_URL_TTL_SECONDS = 15 * 60;

/** Bytes needed to recognize a ZIP archive. */
export const ZIP_SIGNATURE_LENGTH = 4;
const ZIP_LOCAL_FILE_HEADER = [0x50, 0x4b, 0x03, 0x04];
/** An archive with no entries starts with its end-of-central-directory record. */
const ZIP_EMPTY_ARCHIVE = [0x50, 0x4b, 0x05, 0x06];

/** True when the bytes start like a ZIP archive: judged by content, never by name. */
export function isZipArchive(head: Uint8Array): boolean {
  const startsWith = (signature: number[]) => signature.every((byte, i) => head[i] === byte);
  return startsWith(ZIP_LOCAL_FILE_HEADER) || startsWith(ZIP_EMPTY_ARCHIVE);
}

/**
 * A file name safe in a storage key and a Content-Disposition header: the last path segment,
 * with anything but letters, digits, dot, hyphen and underscore replaced, and no leading dots.
 */
export function sanitizeFileName(name: string): string {
  const base = name.split(/[/\\]/).pop() ?? '';
  const safe = base
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[.-]+/, '')
    .slice(-120);
  return safe || 'release.zip';
}

/** Every file of a product lives under this prefix, so a path names its tenant and product. */
export function releaseFilePrefix(tenantId: string, productId: string): string {
  return `${RELEASE_FILES_ROOT}/${tenantId}/${productId}/`;
}

/** A fresh storage path: a random segment keeps uploads of the same name apart. */
export function newReleaseFilePath(tenantId: string, productId: string, fileName: string): string {
  return `${releaseFilePrefix(tenantId, productId)}${randomBase32(10)}/${fileName}`;
}

/** True when `filePath` is one of this product's upload paths (and cannot climb out of it). */
export function isProductFilePath(filePath: string, tenantId: string, productId: string): boolean {
  const prefix = releaseFilePrefix(tenantId, productId);
  if (!filePath.startsWith(prefix)) return false;
  const rest = filePath.slice(prefix.length).split('/');
  return rest.length === 2 && rest.every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}
