import { stringify } from 'csv-stringify/sync';
import type { ExportFormat } from '../../platform/data/index.js';
import {
  DOMAIN_SEPARATOR,
  LICENSE_CSV_COLUMNS,
  RECORD_TYPES,
  recordLine,
  recordSchemas,
  type LicenseRecord,
  type PortableRecord,
  type RecordType,
} from '../records.js';
import { EXPORT_FILE_EXTENSIONS } from './export-file.js';
import type { Batch } from './export-sources.js';
import { closeEntry, finishZip, newZip, openEntry, writeEntry, type ZipState } from './zip-stream.js';

/**
 * How a format turns batches into the file's bytes. Its state (`zip`) is part of the job's saved progress, so the
 * bytes of one invocation continue those of the last. `jsonl`: one record per line, the `export` line first.
 * `csv`: a zip with one CSV file per record type; `licenses.csv` in our import's `csv` columns.
 */
export type ExportEncoder = {
  /** The record types, in file order. */
  types: readonly RecordType[];
  begin(type: RecordType, zip: ZipState | undefined): Buffer;
  batch(type: RecordType, batch: Batch, zip: ZipState | undefined): Buffer;
  end(type: RecordType, zip: ZipState | undefined): Buffer;
  finish(zip: ZipState | undefined): Buffer;
  /** The format's initial state. */
  start(at: Date): ZipState | undefined;
  contentType: string;
  extension: string;
};

const NOTHING = Buffer.alloc(0);

const jsonl: ExportEncoder = {
  types: RECORD_TYPES,
  begin: () => NOTHING,
  batch: (_type, batch) => Buffer.from(batch.records.map(recordLine).join(''), 'utf8'),
  end: () => NOTHING,
  finish: () => NOTHING,
  start: () => undefined,
  contentType: 'application/x-ndjson',
  extension: EXPORT_FILE_EXTENSIONS.jsonl,
};

/**
 * The extra columns of `licenses.csv` after the import's own: the release channel (which the `csv` import reads back),
 * what the license belongs to, and its features (a JSON list of keys).
 */
const LICENSE_EXTRA_COLUMNS = ['channel', 'id', 'product_id', 'plan_id', 'customer_id', 'features'] as const;

/** Every field of a record type's schema but `type`, in the schema's order: the columns of its CSV file. */
const columnsOf = (type: RecordType): string[] =>
  type === 'license' ? [...LICENSE_CSV_COLUMNS, ...LICENSE_EXTRA_COLUMNS] : Object.keys(recordSchemas()[type].shape).filter((key) => key !== 'type');

/** A value as a CSV cell: empty for null, JSON for lists and objects. */
const cell = (value: unknown) => (value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value));

/**
 * CSV lines of `rows`. A cell that begins with `=`, `+`, `-`, `@`, a tab or a carriage return is written with a
 * leading `'` (DECISIONS §20), so a spreadsheet shows a customer's `=HYPERLINK(…)` as text instead of running it;
 * the `csv` import removes the quote again (shared/portability/imports/csv-table.ts).
 */
export const csvLines = (rows: unknown[][]) => Buffer.from(stringify(rows, { escape_formulas: true }));

function licenseRow(record: LicenseRecord, batch: Batch): unknown[] {
  const extras = batch.licenseExtras?.get(record.id);
  const row: Record<(typeof LICENSE_CSV_COLUMNS)[number] | (typeof LICENSE_EXTRA_COLUMNS)[number], unknown> = {
    license_key: record.licenseKey,
    customer_email: record.customerEmail,
    customer_name: record.customerName,
    status: record.status,
    seats: record.seats,
    expires_at: record.expiresAt,
    domains: extras?.domains.join(DOMAIN_SEPARATOR),
    plan_slug: extras?.planSlug,
    created_at: record.createdAt,
    channel: record.channel,
    id: record.id,
    product_id: record.productId,
    plan_id: record.planId,
    customer_id: record.customerId,
    features: record.features,
  };
  return columnsOf('license').map((column) => cell(row[column as keyof typeof row]));
}

const rowOf = (type: RecordType, record: PortableRecord, batch: Batch) =>
  record.type === 'license' ? licenseRow(record, batch) : columnsOf(type).map((column) => cell((record as Record<string, unknown>)[column]));

const zipOf = (zip: ZipState | undefined) => {
  if (!zip) throw new Error('csv export without its zip state');
  return zip;
};

const csv: ExportEncoder = {
  types: RECORD_TYPES.filter((type) => type !== 'export'),
  begin: (type, zip) => Buffer.concat([openEntry(zipOf(zip), `${type}s.csv`), writeEntry(zipOf(zip), csvLines([columnsOf(type)]))]),
  batch: (type, batch, zip) =>
    batch.records.length ? writeEntry(zipOf(zip), csvLines(batch.records.map((record) => rowOf(type, record, batch)))) : NOTHING,
  end: (_type, zip) => closeEntry(zipOf(zip)),
  finish: (zip) => finishZip(zipOf(zip)),
  start: (at) => newZip(at),
  contentType: 'application/zip',
  extension: EXPORT_FILE_EXTENSIONS.csv,
};

export const ENCODERS: Record<ExportFormat, ExportEncoder> = { jsonl, csv };
