import type busboy from 'busboy';
import { BadRequestError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../../platform/index.js';

export type UploadForm = { file: { name: string; bytes: Buffer }; version?: string };
export type UploadLimits = { fileBytes: number; bodyBytes: number };

const FIELD_LIMIT_BYTES = 1024;
const isMultipart = (contentType: string | undefined) => /^multipart\/form-data\s*;/i.test(contentType ?? '');
const tooLarge = (limits: UploadLimits) =>
  new PayloadTooLargeError(`file is larger than ${limits.fileBytes / (1024 * 1024)} MiB; use an upload URL`);

/**
 * Reads the release upload form (`file`, optional `version`) from a multipart body held in memory. A body over
 * `bodyBytes` is 413 by its `content-length` alone, before anything is parsed; a file over `fileBytes` is 413 too.
 * Wrong content type is 415; anything else unexpected is 400. The parser is loaded by the first upload: most management
 * containers serve none.
 */
export async function parseUploadForm(
  headers: { contentType: string | undefined; contentLength: string | undefined },
  body: Buffer,
  limits: UploadLimits,
): Promise<UploadForm> {
  if (Math.max(Number(headers.contentLength) || 0, body.length) > limits.bodyBytes) throw tooLarge(limits);
  const contentType = headers.contentType;
  if (!isMultipart(contentType)) throw new UnsupportedMediaTypeError('Content-Type must be multipart/form-data');
  const { default: createParser } = await import('busboy');
  return new Promise((resolve, reject) => {
    let failure: Error | undefined;
    const fail = (error: Error) => (failure ??= error);
    let file: UploadForm['file'] | undefined;
    let fileParts = 0;
    let version: string | undefined;
    let parser: busboy.Busboy;
    try {
      parser = createParser({
        headers: { 'content-type': contentType! },
        // busboy reports the limit when a file reaches it; one byte more lets a file of exactly the maximum through.
        limits: { fileSize: limits.fileBytes + 1, fieldSize: FIELD_LIMIT_BYTES, fields: 5, files: 2, parts: 7 },
      });
    } catch {
      reject(new BadRequestError('Malformed multipart body'));
      return;
    }
    parser.on('file', (name, stream, info) => {
      // Counted as parts arrive: a file's 'end' may come after the next part has begun.
      if (name !== 'file') fail(new BadRequestError(`Unknown field: ${name}`));
      else if (++fileParts > 1) fail(new BadRequestError('Only one file may be uploaded'));
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => fail(tooLarge(limits)));
      stream.on('end', () => {
        if (name === 'file' && !file) file = { name: info.filename ?? '', bytes: Buffer.concat(chunks) };
      });
    });
    parser.on('field', (name, value, info) => {
      if (name !== 'version') fail(new BadRequestError(`Unknown field: ${name}`));
      else if (info.valueTruncated) fail(new BadRequestError('version: too long'));
      else version = value;
    });
    for (const limit of ['partsLimit', 'filesLimit', 'fieldsLimit'] as const) {
      parser.on(limit, () => fail(new BadRequestError('Too many parts in the upload form')));
    }
    parser.on('error', () => reject(failure ?? new BadRequestError('Malformed multipart body')));
    parser.on('close', () => {
      if (failure) reject(failure);
      else if (!file) reject(new BadRequestError('file is required'));
      else resolve({ file, ...(version !== undefined && { version }) });
    });
    parser.end(body);
  });
}
