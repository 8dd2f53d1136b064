import { Readable } from 'node:stream';
import { randomBase32 } from '../../platform/index.js';
import { bucketOf, isMissing, type StorageDeps } from '../../platform/storage/index.js';

/** Largest file through `POST /api/imports` itself (it must fit in Lambda's 6 MiB event, as release uploads do). */
export const MAX_IMPORT_BODY_BYTES = 4 * 1024 * 1024;
/** Largest file through an upload URL: 40 times the body limit, hundreds of thousands of licenses. */
export const MAX_IMPORT_UPLOAD_BYTES = 160 * 1024 * 1024;
export const IMPORT_UPLOAD_URL_TTL_SECONDS = 15 * 60;

/** Every import file of a tenant lives under its prefix; an upload id names one. */
export const importFileKey = (tenantId: string, uploadId: string) => `imports/${tenantId}/${uploadId}`;

/** A fresh upload id: 16 lowercase base32 characters, so a key names nothing outside its tenant's prefix. */
export const newUploadId = () => randomBase32(10);
export const isUploadId = (value: string) => /^[a-z2-7]{16}$/.test(value);

export async function putImportFile(deps: StorageDeps, key: string, bytes: Uint8Array, contentType: string): Promise<void> {
  const { s3, sdk } = await deps.clients.s3();
  await s3.send(new sdk.PutObjectCommand({ Bucket: bucketOf(deps), Key: key, Body: bytes, ContentType: contentType }));
}

/** A URL that accepts one PUT of exactly `fileSize` bytes (the signature covers the length). */
export async function presignImportUpload(deps: StorageDeps, key: string, fileSize: number): Promise<string> {
  const { s3, sdk } = await deps.clients.s3();
  const command = new sdk.PutObjectCommand({ Bucket: bucketOf(deps), Key: key, ContentLength: fileSize });
  return sdk.getSignedUrl(s3, command, { expiresIn: IMPORT_UPLOAD_URL_TTL_SECONDS });
}

/** The file's size, or undefined when nothing was uploaded under the key. */
export async function importFileSize(deps: StorageDeps, key: string): Promise<number | undefined> {
  const { s3, sdk } = await deps.clients.s3();
  try {
    const head = await s3.send(new sdk.HeadObjectCommand({ Bucket: bucketOf(deps), Key: key }));
    return head.ContentLength ?? 0;
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

/** The file's bytes as they stream from the bucket (never the whole file in memory), or undefined when it is gone. */
export async function openImportFile(deps: StorageDeps, key: string): Promise<AsyncIterable<Buffer> | undefined> {
  const { s3, sdk } = await deps.clients.s3();
  try {
    const object = await s3.send(new sdk.GetObjectCommand({ Bucket: bucketOf(deps), Key: key }));
    return (object.Body ?? Readable.from([])) as Readable;
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

/**
 * Where the prepared rows of an import are kept (beside its file, so they expire with it): chunk `n` holds the
 * prepared rows from `n × PREPARED_CHUNK_ROWS` on, one JSON line each.
 */
export const preparedChunkKey = (fileKey: string, chunk: number) => `${fileKey}.rows/${String(chunk).padStart(6, '0')}`;
export const PREPARED_CHUNK_ROWS = 2000;

export async function putPreparedChunk(deps: StorageDeps, key: string, lines: string): Promise<void> {
  const { s3, sdk } = await deps.clients.s3();
  await s3.send(new sdk.PutObjectCommand({ Bucket: bucketOf(deps), Key: key, Body: lines, ContentType: 'application/x-ndjson' }));
}

/** A chunk of prepared rows as text, or undefined when it is gone. */
export async function readPreparedChunk(deps: StorageDeps, key: string): Promise<string | undefined> {
  const { s3, sdk } = await deps.clients.s3();
  try {
    const object = await s3.send(new sdk.GetObjectCommand({ Bucket: bucketOf(deps), Key: key }));
    return (await object.Body?.transformToString('utf8')) ?? '';
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}
