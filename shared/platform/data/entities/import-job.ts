import { Entity } from 'electrodb';
import { IMPORT_FORMATS, IMPORT_STATUSES } from '../attribute-values.js';
import { globalIndex, model, primaryKey } from '../keys.js';
import { SERVICE_NAME } from '../table-schema.js';

/**
 * An import (`POST /api/imports`): its file (`fileKey` in the bucket), its target and its progress. The worker reads
 * the file once, into its prepared rows (`<fileKey>.rows/…`, `rows` of them); `cursor` is the number of prepared rows
 * done: every batch's transaction moves it on the condition that it is still where the worker read it, in the same
 * transaction as the batch's items and counts, so a crash or a second worker never writes a row twice or counts it
 * twice. A license with more activations than one transaction holds is written in parts: `part` is the number of its
 * activations written, `partLicenseId` its id. Counts are added with `ADD`. `updatedAt` moves with every step forward:
 * an import whose `updatedAt` is 15 minutes old has stalled (shared/portability/imports/import-stalls.ts).
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
      /** Rows imported with a warning, or left out for a reason; the first 100 are `importWarning` items. */
      warningCount: { type: 'number', default: 0 },
      /** Activations written of the license at `cursor`, while it is written in parts. */
      part: { type: 'number' },
      partLicenseId: { type: 'string' },
      /** What stopped the worker's last run, when it failed: the reason the import ends with if it stalls. */
      lastError: { type: 'string' },
      /** Why a failed import stopped (the file could not be read, the product was deleted, it stalled). */
      failure: { type: 'string' },
      /** `edd`: the store's time zone (IANA), its dates' zone; and the one product of an all-products export to import. */
      timezone: { type: 'string' },
      productName: { type: 'string' },
      /** `woocommerce`: a file of the WordPress users (id, e-mail, name) the licenses name. */
      usersFileKey: { type: 'string' },
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

/** A row of an import imported with a warning, or left out for a reason (at most 100 are kept), as `importError`. */
export const importWarningEntity = () =>
  new Entity({
    model: model('importWarning'),
    attributes: {
      importId: { type: 'string', required: true },
      row: { type: 'number', required: true, padding: { length: 9, char: '0' } },
      message: { type: 'string', required: true },
    },
    indexes: { byImport: primaryKey(['importId'], ['row']) },
  });

/**
 * The one import a tenant may have queued or running (DECISIONS §20): created with the import, on the condition that
 * there is none, and deleted in the transaction that ends it. Keyed in a partition of its own
 * (`$licensing#importSlot_<tenantId>`), so the import worker, which ends imports, is given no right to the tenant's
 * other items.
 */
export const importSlotEntity = () =>
  new Entity({
    model: model('importSlot'),
    attributes: {
      tenantId: { type: 'string', required: true },
      importId: { type: 'string', required: true },
      createdAt: { type: 'string', required: true },
    },
    indexes: {
      byTenant: {
        pk: { field: 'pk', composite: ['tenantId'] as const, casing: 'none', template: `$${SERVICE_NAME}#importSlot_\${tenantId}` },
        sk: { field: 'sk', composite: [] as const, casing: 'none' },
      },
    },
  });
