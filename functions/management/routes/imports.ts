import * as z from 'zod/mini';
import { BadRequestError, hasIdShape, lazily, NotFoundError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../../../shared/platform/index.js';
import { header, type HttpEvent, json, ok, paginationQuery, rawBody, type Route } from '../../../shared/platform/http/index.js';
import { createImportUploadUrl, getImport, IMPORT_FORMATS, type ImportFile, isTimeZone, isUploadId, listImports, MAX_IMPORT_BODY_BYTES, MAX_IMPORT_UPLOAD_BYTES, startImport, type StartImportDeps } from '../../../shared/portability/index.js';
import { ID_KINDS } from '../id-kinds.js';
import type { RouteBuilders } from '../route.js';

/**
 * Content types of an import file: CSV, JSON Lines (`jsonl`, and API pages one per line) and JSON (an API page,
 * DECISIONS §27). The worker reads the file by its format, whatever the type says.
 */
export const IMPORT_CONTENT_TYPES = ['text/csv', 'application/x-ndjson', 'application/jsonl', 'application/json'];

/** Longest product name `productName` may give. */
const MAX_PRODUCT_NAME_LENGTH = 200;

/** The routes' schemas, built with the first request that reads one (functions/management/route.ts: `SchemaSource`). */
const schemas = lazily(() => {
  const startQuery = z.strictObject({
    productId: z.string({ error: 'productId is required' }).check(z.minLength(1, 'productId is required')),
    format: z.enum(IMPORT_FORMATS, { error: `format must be one of ${IMPORT_FORMATS.join(', ')}` }),
    dryRun: z.optional(z.enum(['true', 'false'], { error: 'dryRun must be true or false' })),
    uploadId: z.optional(z.string().check(z.refine(isUploadId, 'uploadId must be an id from POST /api/imports/upload-url'))),
    timezone: z.optional(z.string().check(z.refine(isTimeZone, 'timezone must be an IANA time zone name, such as Europe/Berlin'))),
    productName: z.optional(z.string().check(z.minLength(1, 'productName must not be empty'), z.maxLength(MAX_PRODUCT_NAME_LENGTH, `productName must be at most ${MAX_PRODUCT_NAME_LENGTH} characters`))),
    usersUploadId: z.optional(z.string().check(z.refine(isUploadId, 'usersUploadId must be an id from POST /api/imports/upload-url'))),
  });
  const uploadUrlBody = z.strictObject({
    fileSize: z.number().check(z.int(), z.gte(1), z.lte(MAX_IMPORT_UPLOAD_BYTES, `must be at most ${MAX_IMPORT_UPLOAD_BYTES / (1024 * 1024)} MB`)),
  });
  const listQuery = z.strictObject(paginationQuery());
  return { startQuery, uploadUrlBody, listQuery };
});

/**
 * The request's file, when it sends one: its bytes and type. Checked before anything is read or written: over
 * 4 MiB is 413 (larger files go through an upload URL), a type other than CSV or JSON Lines 415 (a form or
 * `text/plain` body never starts an import: the CSRF rule).
 */
async function readImportBody(event: HttpEvent): Promise<{ bytes: Uint8Array; contentType: string } | undefined> {
  const bytes = rawBody(event);
  if (bytes.length === 0) return undefined;
  if (bytes.length > MAX_IMPORT_BODY_BYTES) throw new PayloadTooLargeError('The file is larger than 4 MiB: send it through POST /api/imports/upload-url');
  const contentType = header(event, 'content-type')?.split(';')[0]!.trim().toLowerCase();
  if (!contentType || !IMPORT_CONTENT_TYPES.includes(contentType)) {
    throw new UnsupportedMediaTypeError(`Content-Type must be ${IMPORT_CONTENT_TYPES.join(', ')}`);
  }
  return { bytes, contentType };
}

/** The parameters only one format reads (DECISIONS §27), with it. */
const FORMAT_PARAMETERS = [
  ['timezone', 'edd'],
  ['productName', 'edd'],
  ['usersUploadId', 'woocommerce'],
] as const;

export function importRoutes(deps: StartImportDeps, { authed }: RouteBuilders): Route[] {
  return [
    authed('POST', '/api/imports', { readBody: readImportBody, query: () => schemas().startQuery, verifiedOnly: true, permission: 'data', audit: { action: 'import.create', target: 'importJob', idField: 'importId' } }, async ({ caller, query, body }) => {
      // An id of another shape names no product: answered as an unknown one, before any read.
      if (!hasIdShape('prd', query.productId)) throw new NotFoundError('Product not found');
      for (const [parameter, format] of FORMAT_PARAMETERS) {
        if (query[parameter] !== undefined && query.format !== format) throw new BadRequestError(`${parameter} is read by the ${format} format only`);
      }
      const file: ImportFile | undefined = query.uploadId ? { uploadId: query.uploadId } : body;
      if (!file) throw new UnsupportedMediaTypeError(`Send the file as the body (${IMPORT_CONTENT_TYPES.join(', ')}) or name its uploadId`);
      const { productId, format, timezone, productName, usersUploadId } = query;
      const started = await startImport(deps, caller.tenantId, { productId, format, dryRun: query.dryRun === 'true', file, timezone, productName, usersUploadId });
      return json(202, started);
    }),
    authed('POST', '/api/imports/upload-url', { body: () => schemas().uploadUrlBody, verifiedOnly: true, permission: 'data', audit: false }, async ({ caller, body }) => ok(await createImportUploadUrl(deps, caller.tenantId, body.fileSize))),
    authed('GET', '/api/imports', { query: () => schemas().listQuery, permission: 'read' }, async ({ caller, query }) => ok(await listImports(deps, caller.tenantId, query.page, query.per_page))),
    authed('GET', '/api/imports/{id}', { pathIds: { id: ID_KINDS.import }, permission: 'read' }, async ({ caller, params }) => ok(await getImport(deps, caller.tenantId, params.id!))),
  ];
}
