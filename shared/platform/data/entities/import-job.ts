import { Entity } from 'electrodb';
import { IMPORT_FORMATS, IMPORT_STATUSES } from '../attribute-values.js';
import { globalIndex, model, primaryKey } from '../keys.js';

/**
 * An import (`POST /api/imports`): its file (`fileKey` in the bucket), its target and its progress. `cursor` is the
 * number of the file's rows done: every batch's transaction moves it on the condition that it is still where the
 * worker read it, in the same transaction as the batch's items and counts, so a crash or a second worker never
 * writes a row twice or counts it twice. Counts are added with `ADD`.
 */
export const importJobEntity = () =>
  new Entity({
    model: model('importJob'),
    attributes: {
      importId: { type: 'string', required: true },
      tenantId: { type: 'string', required: true },
      productId: { type: 'string', required: true },
      format: { type: IMPORT_FORMATS, required: true },
      dryRun: { type: 'boolean', required: true },
      status: { type: IMPORT_STATUSES, required: true },
      fileKey: { type: 'string', required: true },
      fileSize: { type: 'number', required: true },
      /** The file's rows, once the worker has read it. */
      rows: { type: 'number' },
      cursor: { type: 'number', required: true, default: 0 },
      licenses: { type: 'number', required: true, default: 0 },
      customers: { type: 'number', required: true, default: 0 },
      activations: { type: 'number', required: true, default: 0 },
      skipped: { type: 'number', required: true, default: 0 },
      /** Bad rows; the first 100 are `importError` items. */
      errorCount: { type: 'number', required: true, default: 0 },
      /** Why a failed import stopped (the file could not be read, the product was deleted). */
      failure: { type: 'string' },
      createdAt: { type: 'string', required: true },
      updatedAt: { type: 'string', required: true },
      finishedAt: { type: 'string' },
    },
    indexes: {
      byId: primaryKey(['importId']),
      byTenant: globalIndex(1, ['tenantId'], ['createdAt', 'importId']),
    },
  });

/** A bad row of an import (at most 100 are kept), by row number: one query lists them in file order. */
export const importErrorEntity = () =>
  new Entity({
    model: model('importError'),
    attributes: {
      importId: { type: 'string', required: true },
      row: { type: 'number', required: true, padding: { length: 9, char: '0' } },
      message: { type: 'string', required: true },
    },
    indexes: { byImport: primaryKey(['importId'], ['row']) },
  });
