import { api, unwrap } from './client';
import { ApiError } from './errors';
import type { components } from './schema.gen';

type StoredFile = components['schemas']['StoredFile'];

/**
 * Files up to this size go through the service (`…/releases/upload`, whose limit it is: a larger body, base64-encoded,
 * would not fit in Lambda's 6 MiB event); larger ones go straight to storage with a presigned PUT.
 */
export const DIRECT_UPLOAD_LIMIT = 4 * 1024 * 1024;

export type Progress = (fraction: number) => void;

/** XMLHttpRequest, because fetch reports no upload progress. Resolves with the status and the body as text. */
function send(method: 'POST' | 'PUT', url: string, body: Blob | FormData, onProgress: Progress): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open(method, url);
    request.upload.onprogress = (event) => event.lengthComputable && onProgress(event.loaded / event.total);
    request.onload = () => resolve({ status: request.status, text: request.responseText });
    request.onerror = () => reject(new ApiError(0, 'The upload was interrupted. Check your connection and try again.'));
    request.send(body);
  });
}

function refusal(status: number, text: string): ApiError {
  try {
    const body = JSON.parse(text) as { error?: string; details?: ApiError['details'] };
    return new ApiError(status, body.error ?? `Upload failed (${status})`, body.details ?? []);
  } catch {
    return new ApiError(status, `Upload failed (${status})`);
  }
}

/** Stores a release file of the product, by whichever way suits its size, reporting progress from 0 to 1. */
export async function uploadReleaseFile(productId: string, file: File, version: string | undefined, onProgress: Progress): Promise<StoredFile> {
  if (file.size <= DIRECT_UPLOAD_LIMIT) {
    const form = new FormData();
    if (version) form.append('version', version);
    form.append('file', file);
    const { status, text } = await send('POST', `/api/products/${encodeURIComponent(productId)}/releases/upload`, form, onProgress);
    if (status !== 201) throw refusal(status, text);
    return JSON.parse(text) as StoredFile;
  }
  const target = await unwrap(
    api.POST('/api/products/{id}/releases/upload-url', { params: { path: { id: productId } }, body: { fileName: file.name, fileSize: file.size } }),
  );
  const { status } = await send('PUT', target.uploadUrl, file, onProgress);
  if (status < 200 || status >= 300) throw new ApiError(status, `Storage refused the upload (${status})`);
  return { filePath: target.filePath, fileName: target.fileName, fileSize: file.size };
}

type PlatformFile = components['schemas']['PlatformFile'];

/** SHA-512 of the file in base64, as electron-builder writes it and electron-updater checks it (DECISIONS §26). */
async function sha512Of(file: File): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-512', await file.arrayBuffer()));
  let binary = '';
  for (const byte of digest) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * Adds a desktop build to a release as its file for `platform`: its SHA-512 computed here, the bytes sent straight to
 * storage by an upload URL (any size up to the limit, with progress from 0 to 1), then the file recorded.
 */
export async function uploadPlatformFile(
  productId: string,
  releaseId: string,
  input: { platform: PlatformFile['platform']; file: File; signature?: string },
  onProgress: Progress,
): Promise<PlatformFile> {
  const sha512 = await sha512Of(input.file);
  const target = await unwrap(
    api.POST('/api/products/{id}/releases/upload-url', { params: { path: { id: productId } }, body: { fileName: input.file.name, fileSize: input.file.size } }),
  );
  const { status } = await send('PUT', target.uploadUrl, input.file, onProgress);
  if (status < 200 || status >= 300) throw new ApiError(status, `Storage refused the upload (${status})`);
  return unwrap(
    api.POST('/api/products/{id}/releases/{releaseId}/files', {
      params: { path: { id: productId, releaseId } },
      body: {
        platform: input.platform,
        fileName: input.file.name,
        fileSize: input.file.size,
        filePath: target.filePath,
        sha512,
        ...(input.signature && { signature: input.signature }),
      },
    }),
  );
}
