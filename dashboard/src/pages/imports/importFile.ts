import { api, unwrap } from '../../api/client';
import { ApiError } from '../../api/errors';
import type { components } from '../../api/schema.gen';

export type ImportFormat = components['schemas']['Import']['format'];

/** The service takes a file this large as the request's body; a larger one goes to storage through an upload URL. */
const DIRECT_LIMIT = 4 * 1024 * 1024;

/** What the dashboard offers, with where each export comes from (docs/import.md). */
export const IMPORT_FORMATS: { value: ImportFormat; label: string }[] = [
  { value: 'edd', label: 'Easy Digital Downloads (Software Licensing export)' },
  { value: 'woocommerce', label: 'License Manager for WooCommerce (CSV export)' },
  { value: 'freemius', label: 'Freemius (API pages: licenses, users, installs)' },
  { value: 'lemonsqueezy', label: 'Lemon Squeezy (API pages: license keys and instances)' },
  { value: 'gumroad', label: 'Gumroad (sales export)' },
  { value: 'csv', label: 'CSV (ours: license_key, customer_email, …)' },
  { value: 'jsonl', label: 'Account export (jsonl)' },
];

/** What one format reads besides the file (docs/import.md): EDD's time zone and product, WooCommerce's users file. */
export type ImportOptions = { timezone?: string; productName?: string; usersFile?: File };

export type StartImport = { productId: string; format: ImportFormat; dryRun: boolean; file: File; options: ImportOptions };

/** The type a file is sent as, by its name: JSON documents one per line, one JSON document, or CSV. */
function contentTypeOf(file: File, format: ImportFormat): string {
  if (format === 'jsonl' || /\.(jsonl|ndjson)$/i.test(file.name)) return 'application/x-ndjson';
  return /\.json$/i.test(file.name) ? 'application/json' : 'text/csv';
}

/** Sends a file to storage through an upload URL (as a large import file, or a side file such as the users file): its id. */
async function uploaded(file: File): Promise<string> {
  const target = await unwrap(api.POST('/api/imports/upload-url', { body: { fileSize: file.size } }));
  let stored: Response;
  try {
    stored = await fetch(target.uploadUrl, { method: 'PUT', body: file });
  } catch {
    throw new ApiError(0, 'The upload was interrupted. Check your connection and try again.');
  }
  if (!stored.ok) throw new ApiError(stored.status, `Storage refused the upload (${stored.status})`);
  return target.uploadId;
}

/** Starts an import of the file: as the request's body, or uploaded first when it is larger than a body may be. */
export async function startImport({ productId, format, dryRun, file, options }: StartImport): Promise<string> {
  const query = {
    productId,
    format,
    ...(dryRun && { dryRun: 'true' as const }),
    ...(options.timezone && { timezone: options.timezone }),
    ...(options.productName && { productName: options.productName }),
    ...(options.usersFile && { usersUploadId: await uploaded(options.usersFile) }),
  };
  if (file.size <= DIRECT_LIMIT) {
    const contentType = contentTypeOf(file, format);
    const started = await unwrap(
      api.POST('/api/imports', {
        params: { query },
        body: file as unknown as string,
        bodySerializer: (body: unknown) => body as BodyInit,
        headers: { 'content-type': contentType },
      }),
    );
    return started.id;
  }
  const uploadId = await uploaded(file);
  // The document declares the file body (the common way); with `uploadId` there is none.
  const started = await unwrap(api.POST('/api/imports', { params: { query: { ...query, uploadId } }, body: undefined as unknown as string }));
  return started.id;
}
