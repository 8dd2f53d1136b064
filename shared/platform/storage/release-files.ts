import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { CoreConfig } from '../config.js';
import type { StorageClient } from '../s3/storage-client.js';

/** What the release-file functions use: the bucket from config and the one S3 client of the container. */
export type StorageDeps = { config: Pick<CoreConfig, 'bucketName'>; clients: { s3: StorageClient } };

/** The bucket of every stored file (releases, imports). */
export function bucketOf(deps: StorageDeps): string {
  if (!deps.config.bucketName) throw new Error('BUCKET_NAME is not configured');
  return deps.config.bucketName;
}

/** True for S3's "no such object" in any of its forms. */
export const isMissing = (error: unknown) => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404;
};

export async function putReleaseFile(
  deps: StorageDeps,
  filePath: string,
  bytes: Uint8Array,
  metadata: Record<string, string> = {},
): Promise<void> {
  const { s3, sdk } = await deps.clients.s3();
  await s3.send(new sdk.PutObjectCommand({ Bucket: bucketOf(deps), Key: filePath, Body: bytes, ContentType: 'application/zip', Metadata: metadata }));
}

/** A URL that accepts one PUT of exactly `fileSize` bytes at `filePath` (the signature covers the length). */
export async function presignUpload(deps: StorageDeps, filePath: string, fileSize: number, expiresInSeconds: number): Promise<string> {
  const { s3, sdk } = await deps.clients.s3();
  const command = new sdk.PutObjectCommand({ Bucket: bucketOf(deps), Key: filePath, ContentLength: fileSize });
  return sdk.getSignedUrl(s3, command, { expiresIn: expiresInSeconds });
}

/** The stored file's size in bytes, or undefined when there is no such file. */
async function storedSize(deps: StorageDeps, filePath: string): Promise<number | undefined> {
  const { s3, sdk } = await deps.clients.s3();
  try {
    const head = await s3.send(new sdk.HeadObjectCommand({ Bucket: bucketOf(deps), Key: filePath }));
    return head.ContentLength ?? 0;
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

/** The stored file's size and first bytes (enough to recognize its format), or undefined when there is none. */
export async function inspectReleaseFile(
  deps: StorageDeps,
  filePath: string,
  headLength: number,
): Promise<{ size: number; head: Uint8Array } | undefined> {
  const size = await storedSize(deps, filePath);
  if (size === undefined) return undefined;
  const length = Math.min(headLength, size);
  if (length === 0) return { size, head: new Uint8Array() };
  const { s3, sdk } = await deps.clients.s3();
  const object = await s3.send(new sdk.GetObjectCommand({ Bucket: bucketOf(deps), Key: filePath, Range: `bytes=0-${length - 1}` }));
  return { size, head: (await object.Body?.transformToByteArray()) ?? new Uint8Array() };
}

/** Bytes `[start, end)` of a stored file, as a stream: for reading one entry of a large ZIP without fetching all of it. */
export async function readReleaseFileRange(deps: StorageDeps, filePath: string, start: number, end: number): Promise<Readable> {
  const { s3, sdk } = await deps.clients.s3();
  const object = await s3.send(new sdk.GetObjectCommand({ Bucket: bucketOf(deps), Key: filePath, Range: `bytes=${start}-${end - 1}` }));
  return object.Body as Readable;
}

/** SHA-1 (hex) of a stored file, streamed through the hash: what Composer checks a downloaded ZIP against (`shasum`). */
export async function releaseFileSha1(deps: StorageDeps, filePath: string): Promise<string> {
  const { s3, sdk } = await deps.clients.s3();
  const object = await s3.send(new sdk.GetObjectCommand({ Bucket: bucketOf(deps), Key: filePath }));
  const hash = createHash('sha1');
  for await (const chunk of object.Body as Readable) hash.update(chunk as Uint8Array);
  return hash.digest('hex');
}
