import type { Config } from '../../platform/index.js';
import type { ExportFormat } from '../../platform/data/index.js';
import type { StorageClient } from '../../platform/s3/index.js';

/** The export bucket and the container's S3 client. */
export type ExportFileDeps = { config: Pick<Config, 'exports'>; s3: StorageClient };

export type UploadedPart = { PartNumber: number; ETag: string };

/**
 * Bytes of the file gathered before they go to S3 as one part: S3 takes parts of at least 5 MiB (but the last), and
 * at most 10,000 of them, so an export may reach 80 GB.
 */
export const PART_BYTES = 8 * 1024 * 1024;

function bucketOf(deps: ExportFileDeps): string {
  if (!deps.config.exports.bucketName) throw new Error('EXPORT_BUCKET_NAME is not configured');
  return deps.config.exports.bucketName;
}

/**
 * The file's extension in each format (its encoder's, shared/portability/exports/export-formats.ts): named here, so that requesting
 * an export (the management API) does not load the encoders and their CSV writer.
 */
export const EXPORT_FILE_EXTENSIONS: Record<ExportFormat, string> = { jsonl: 'jsonl', csv: 'zip' };

/** Where an export's file lives: under its tenant, so that nothing but its id and tenant names it. */
export const exportFileKey = (tenantId: string, exportId: string, extension: string) => `exports/${tenantId}/${exportId}/export.${extension}`;
/** Bytes read but not yet enough for a part, kept between two invocations. */
const stashKey = (fileKey: string) => `${fileKey}.pending`;

export async function startUpload(deps: ExportFileDeps, fileKey: string, contentType: string): Promise<string> {
  const { s3, sdk } = await deps.s3();
  const { UploadId } = await s3.send(new sdk.CreateMultipartUploadCommand({ Bucket: bucketOf(deps), Key: fileKey, ContentType: contentType }));
  if (!UploadId) throw new Error('S3 gave no upload id');
  return UploadId;
}

export async function uploadPart(deps: ExportFileDeps, fileKey: string, uploadId: string, partNumber: number, bytes: Buffer): Promise<UploadedPart> {
  const { s3, sdk } = await deps.s3();
  const { ETag } = await s3.send(
    new sdk.UploadPartCommand({ Bucket: bucketOf(deps), Key: fileKey, UploadId: uploadId, PartNumber: partNumber, Body: bytes }),
  );
  if (!ETag) throw new Error('S3 gave no ETag for a part');
  return { PartNumber: partNumber, ETag };
}

export async function completeUpload(deps: ExportFileDeps, fileKey: string, uploadId: string, parts: UploadedPart[]): Promise<void> {
  const { s3, sdk } = await deps.s3();
  await s3.send(new sdk.CompleteMultipartUploadCommand({ Bucket: bucketOf(deps), Key: fileKey, UploadId: uploadId, MultipartUpload: { Parts: parts } }));
}

export async function abortUpload(deps: ExportFileDeps, fileKey: string, uploadId: string): Promise<void> {
  const { s3, sdk } = await deps.s3();
  await s3.send(new sdk.AbortMultipartUploadCommand({ Bucket: bucketOf(deps), Key: fileKey, UploadId: uploadId }));
}

export async function stash(deps: ExportFileDeps, fileKey: string, bytes: Buffer): Promise<void> {
  const { s3, sdk } = await deps.s3();
  await s3.send(new sdk.PutObjectCommand({ Bucket: bucketOf(deps), Key: stashKey(fileKey), Body: bytes }));
}

export async function unstash(deps: ExportFileDeps, fileKey: string): Promise<Buffer> {
  const { s3, sdk } = await deps.s3();
  const { Body } = await s3.send(new sdk.GetObjectCommand({ Bucket: bucketOf(deps), Key: stashKey(fileKey) }));
  return Buffer.from(await Body!.transformToByteArray());
}

export async function dropStash(deps: ExportFileDeps, fileKey: string): Promise<void> {
  const { s3, sdk } = await deps.s3();
  await s3.send(new sdk.DeleteObjectCommand({ Bucket: bucketOf(deps), Key: stashKey(fileKey) }));
}

/** A GET of the finished file that saves it under `fileName`. */
export async function presignDownload(deps: ExportFileDeps, fileKey: string, fileName: string, expiresInSeconds: number): Promise<string> {
  const { s3, sdk } = await deps.s3();
  const command = new sdk.GetObjectCommand({ Bucket: bucketOf(deps), Key: fileKey, ResponseContentDisposition: `attachment; filename="${fileName}"` });
  return sdk.getSignedUrl(s3, command, { expiresIn: expiresInSeconds });
}
