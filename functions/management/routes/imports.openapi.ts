import * as z from 'zod/mini';
import { IMPORT_STATUSES } from '../../../shared/platform/data/index.js';
import { type createImportUploadUrl, type Import as ImportView, IMPORT_FORMATS } from '../../../shared/portability/index.js';
import { assertDescribes, defineOperations, described, EX, exampleId, idOf, named, nullableTimestamp, pageOf, timestamp } from '../../../shared/platform/openapi/index.js';

const count = z.number().check(z.int(), z.gte(0));

export const Import = named(
  'Import',
  z.object({
    id: idOf('imp'),
    status: z.enum(IMPORT_STATUSES),
    dryRun: z.boolean(),
    productId: idOf('prd'),
    format: z.enum(IMPORT_FORMATS),
    counts: z.object({ licenses: count, customers: count, activations: count, skipped: count }),
    errors: z.array(z.object({ row: count, message: z.string() })),
    errorCount: count,
    warnings: z.array(z.object({ row: count, message: z.string() })),
    warningCount: count,
    rows: z.nullable(count),
    processedRows: count,
    failure: z.nullable(z.string()),
    createdAt: timestamp,
    finishedAt: nullableTimestamp,
  }),
  'An import (DECISIONS §16, §27). `counts`: licenses, customers and activations created (a dry run: that it would create), ' +
    'and rows skipped: their key exists already (or came earlier in the file), or the format leaves them out for a reason ' +
    '(a sandbox license, an unsold stock key), which `warnings` gives. `errors`: the first 100 bad rows (row numbers as a ' +
    'spreadsheet shows them, the header being row 1; in `jsonl`, line numbers; in API JSON, the item\'s place in the file), ' +
    '`errorCount` all of them. `warnings`: the first 100 rows imported with something to know (seats raised to the sites ' +
    'the license holds, a placeholder e-mail) or left out for a reason, `warningCount` all of them. `rows` is the file\'s ' +
    'row count once the worker has read it, `processedRows` how many are done. `failure`: why a `failed` import stopped ' +
    '(a file that cannot be read in its format, a deleted product, no progress for 15 minutes).',
);
assertDescribes<typeof Import, ImportView>(true);

const ImportUploadUrl = named(
  'ImportUploadUrl',
  z.object({ uploadUrl: z.string(), uploadId: z.string(), expiresAt: timestamp }),
  'A presigned `PUT` for exactly `fileSize` bytes, valid 15 minutes; then `POST /api/imports?…&uploadId=…`.',
);
assertDescribes<typeof ImportUploadUrl, Awaited<ReturnType<typeof createImportUploadUrl>>>(true);

export const importId = exampleId('imp', 'migrate');
export const exampleImport = {
  id: importId,
  status: 'done',
  dryRun: false,
  productId: EX.productId,
  format: 'edd',
  counts: { licenses: 1480, customers: 1210, activations: 2304, skipped: 12 },
  errors: [{ row: 17, message: 'customer e-mail "jane(at)example.com" is not a valid e-mail address' }],
  errorCount: 1,
  warnings: [{ row: 42, message: '3 active sites are more than its 2 seats: seats raised to 3, so every one keeps working' }],
  warningCount: 1,
  rows: 1493,
  processedRows: 1493,
  failure: null,
  createdAt: EX.created,
  finishedAt: EX.updated,
};

export const importOperations = defineOperations({
  'POST /api/imports': {
    summary: 'Import licenses (keys kept)',
    description:
      'Starts a background import of the file in the body into the product (`productId`), read as `format` ' +
      '(docs/import.md lists each format\'s columns): 202 `{id}`, then poll `GET /api/imports/{id}`. One import of an account ' +
      'is queued or running at a time (DECISIONS §20): another is 409 until it ends. Keys are kept exactly ' +
      '(8–128 printable characters without spaces) and work at once on every surface; a key that exists already is ' +
      'skipped and counted, so importing the same file again changes nothing. Imported activations take their seats. ' +
      'Nothing is e-mailed and no webhook fires, except one `import.completed` at the end. `dryRun=true` reads and checks ' +
      'everything and reports what it would do, writing nothing but the import\'s own record. A bad row is listed with its ' +
      'row number; the good rows are imported; no row of a real export loses its key (§27: a license with more sites than ' +
      'its limit imports with all of them, its seats raised, with a warning). The body is the file (`text/csv`; ' +
      '`application/x-ndjson` for `jsonl` and for API pages one per line; `application/json` for one API page), at most ' +
      '4 MiB; a larger file goes through `POST /api/imports/upload-url`, then here with `uploadId` and no body. ' +
      '`lemonsqueezy` and `freemius` take their APIs\' own JSON pages as well as CSV. Parameters of one format: `timezone` ' +
      '(`edd`: the store\'s IANA time zone, in which EDD writes its dates; default UTC), `productName` (`edd`: the product ' +
      'of an all-products export to import; without it, a file of several products is refused), `usersUploadId' +
      '` (`woocommerce`: an upload of the WordPress users, `ID,user_email,display_name`, for the e-mails the export lacks).',
    requestBody: {
      contentType: 'text/csv',
      schema: described(z.string(), 'The export file, as its product wrote it.'),
      examples: { edd: 'License ID,License Key,License Status,Customer Email,…\n101,5f1e2b3c4d5a69788796a5b4c3d2e1f0,active,jane@example.com,…' },
    },
    queryExamples: { productId: EX.productId, format: 'edd', dryRun: 'true' },
    responses: { 202: { description: 'Queued', body: named('ImportStarted', z.object({ id: idOf('imp') })), examples: { queued: { id: importId } } } },
    errors: {
      400: [
        `format must be one of ${IMPORT_FORMATS.join(', ')}`,
        'productId is required',
        'uploadId names no uploaded file',
        'timezone must be an IANA time zone name, such as Europe/Berlin',
        'timezone is read by the edd format only',
        'usersUploadId names no uploaded file',
      ],
      404: ['Product not found'],
      409: ['An import is already running'],
      413: ['The file is larger than 4 MiB: send it through POST /api/imports/upload-url'],
      415: ['Content-Type must be text/csv, application/x-ndjson, application/jsonl, application/json'],
    },
  },
  'POST /api/imports/upload-url': {
    summary: 'Get a presigned upload URL for an import file (≤ 160 MB)',
    requestBody: { examples: { big: { fileSize: 52428800 } } },
    responses: {
      200: {
        description: 'Where to send the file',
        body: ImportUploadUrl,
        examples: { url: { uploadUrl: 'https://bucket.s3.amazonaws.com/imports/…?X-Amz-Signature=…', uploadId: 'k3m5n7p2q4r6s8t2', expiresAt: EX.updated } },
      },
    },
    errors: { 400: ['fileSize: must be at most 160 MB'] },
  },
  'GET /api/imports': {
    summary: 'List imports',
    description: 'Newest first, without their bad rows (`GET /api/imports/{id}` lists those).',
    responses: { 200: { description: 'A page of imports', body: pageOf('ImportPage', Import), examples: { imports: { items: [{ ...exampleImport, errors: [] }], pagination: { page: 1, perPage: 20, total: 1, totalPages: 1 } } } } },
  },
  'GET /api/imports/{id}': {
    summary: 'Get an import',
    description: 'Its status, counts, bad rows and warnings; poll it while `queued` or `running`. One that has made no progress for 15 minutes is `failed` (DECISIONS §20).',
    responses: { 200: { description: 'The import', body: Import, examples: { done: exampleImport } } },
  },
});
