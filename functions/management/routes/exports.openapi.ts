import * as z from 'zod/mini';
import { EXPORT_FORMATS, EXPORT_STATUSES } from '../../../shared/platform/data/index.js';
import type { ExportView } from '../../../shared/portability/index.js';
import { assertDescribes, defineOperations, EX, exampleId, idOf, named, nullableTimestamp, timestamp } from '../../../shared/platform/openapi/index.js';

const Export = named(
  'Export',
  z.object({
    id: idOf('exp'),
    format: z.enum(EXPORT_FORMATS),
    status: z.enum(EXPORT_STATUSES),
    url: z.nullable(z.string()),
    urlExpiresAt: nullableTimestamp,
    counts: z.nullable(z.record(z.string(), z.number())),
    fileSize: z.nullable(z.number()),
    error: z.nullable(z.string()),
    createdAt: timestamp,
    completedAt: nullableTimestamp,
  }),
  'An export of the whole account. `url` (once `done`): a download link valid for one hour, fresh on every `GET`; ' +
    '`counts`: the records written, by type; `fileSize` in bytes.',
);
assertDescribes<typeof Export, ExportView>(true);

const queued = {
  id: exampleId('exp', 'export'),
  format: 'jsonl',
  status: 'queued',
  url: null,
  urlExpiresAt: null,
  counts: null,
  fileSize: null,
  error: null,
  createdAt: EX.created,
  completedAt: null,
};

export const exportOperations = defineOperations({
  'POST /api/exports': {
    summary: 'Export the whole account',
    description:
      'Starts an export of everything of the account: products, plans, releases (metadata, not the files), customers, licenses, ' +
      'activations, payments, subscriptions and webhooks (without their secrets). `jsonl`: one typed record per line, the ' +
      'format `POST /api/imports?format=jsonl` reads back into another account; `csv`: a zip of one CSV file per record type, ' +
      '`licenses.csv` in the columns of the `csv` import. A worker writes the file in the background: poll `GET /api/exports/{id}`.',
    requestBody: { examples: { jsonl: { format: 'jsonl' }, csv: { format: 'csv' } } },
    responses: { 202: { description: 'The export, queued', body: Export, examples: { queued } } },
    errors: { 400: ['format is required', 'format: Invalid option: expected one of "jsonl"|"csv"'] },
  },
  'GET /api/exports/{id}': {
    summary: 'Get an export and its download link',
    description:
      '`status` goes `queued` → `running` → `done` (or `failed`). Once `done`, `url` is a presigned link to the file, valid for one ' +
      'hour; every `GET` gives a fresh one. Exports are kept 7 days, then 404.',
    responses: {
      200: {
        description: 'The export',
        body: Export,
        examples: {
          done: {
            ...queued,
            status: 'done',
            url: 'https://exports.s3.amazonaws.com/exports/usr_…/exp_…/export.jsonl?X-Amz-Signature=…',
            urlExpiresAt: EX.updated,
            counts: { export: 1, product: 2, plan: 3, release: 5, customer: 120, license: 131, activation: 240, payment: 150, subscription: 40, webhook: 1 },
            fileSize: 248_113,
            completedAt: EX.updated,
          },
        },
      },
    },
  },
});
