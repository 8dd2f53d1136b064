import { Entity } from 'electrodb';
import { EXPORT_FORMATS, EXPORT_STATUSES } from '../attribute-values.js';
import { model, primaryKey } from '../keys.js';

/**
 * An export of a whole account (DECISIONS §16), keyed by its id: made by `POST /api/exports` and carried out by the
 * export worker, which keeps its place here (`progress`: the record type and index cursor it reached, the multipart
 * upload's parts, the zip's entries) so that a new invocation resumes where the last one stopped. One worker at a
 * time holds it (`leaseToken` until `leaseUntil`); each save is conditioned on the lease. TTL: as the file (7 days).
 */
export const exportJobEntity = () =>
  new Entity({
    model: model('exportJob'),
    attributes: {
      exportId: { type: 'string', required: true },
      tenantId: { type: 'string', required: true },
      format: { type: EXPORT_FORMATS, required: true },
      status: { type: EXPORT_STATUSES, required: true },
      /** The file in the export bucket. */
      fileKey: { type: 'string', required: true },
      /** Where the worker is: see shared/portability/exports/export-run.ts (`ExportProgress`). */
      progress: { type: 'any' },
      leaseToken: { type: 'string' },
      /** Epoch ms after which another worker may take the job over (the holder died). */
      leaseUntil: { type: 'number' },
      /** Records written, by type, once done. */
      counts: { type: 'any' },
      fileSize: { type: 'number' },
      error: { type: 'string' },
      createdAt: { type: 'string', required: true },
      updatedAt: { type: 'string', required: true },
      completedAt: { type: 'string' },
      ttl: { type: 'number', required: true },
    },
    indexes: { byId: primaryKey(['exportId']) },
  });

