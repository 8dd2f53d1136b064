/**
 * The one DynamoDB table: its key attributes, global secondary indexes and stream.
 * The CDK stack and the local runtime both create the table from this, so they cannot drift.
 */
export const TABLE_KEYS = { partitionKey: 'pk', sortKey: 'sk', timeToLive: 'ttl' } as const;

/**
 * What an index copies of each item besides the keys (docs/data-model.md, "Index projections"): everything, or the
 * attributes its queries read. The table's and the index's own keys are always in it; other indexes' keys never are
 * unless `ALL`, and they are most of a license's size.
 */
export type IndexProjection = { type: 'ALL' } | { type: 'INCLUDE'; attributes: readonly string[] };

/**
 * Every attribute of a license item the lists read, and the two by which ElectroDB recognises one
 * (test/unit/platform/table-schema.test.ts): what gsi4 and gsi5 copy.
 */
export const LICENSE_ATTRIBUTES = [
  '__edb_e__',
  '__edb_v__',
  'licenseKey',
  'licenseId',
  'tenantId',
  'productId',
  'planId',
  'customerId',
  'customerEmail',
  'customerName',
  'status',
  'seats',
  'activatedCount',
  'stagingCount',
  'expiresAt',
  'graceUntil',
  'trialEndsAt',
  'channel',
  'floating',
  'leaseSeconds',
  'createdAt',
  'updatedAt',
] as const;

/**
 * License attributes added since the indexes were deployed, which gsi4 and gsi5 do not copy: DynamoDB cannot change
 * a deployed index's projection, and no list reads these (the license item itself carries them to the edge).
 */
export const UNPROJECTED_LICENSE_ATTRIBUTES = ['pendingSeats'] as const;

/**
 * gsi1 to gsi3 serve several entities' lists, which read whole items (and DynamoDB allows 100 projected attributes over
 * all indexes); gsi4 and gsi5 serve licenses only, so they copy a license's own attributes and none of the other
 * indexes' keys, which keeps each entry under 1 KB: one write unit per license write each, not two.
 */
const PROJECTIONS: Record<number, IndexProjection> = {
  4: { type: 'INCLUDE', attributes: LICENSE_ATTRIBUTES },
  5: { type: 'INCLUDE', attributes: LICENSE_ATTRIBUTES },
};

export const GLOBAL_INDEXES = [1, 2, 3, 4, 5].map((n) => ({
  indexName: `gsi${n}`,
  partitionKey: `gsi${n}pk`,
  sortKey: `gsi${n}sk`,
  projection: PROJECTIONS[n] ?? ({ type: 'ALL' } as IndexProjection),
}));

/**
 * The stream carries new images only: the outbox fan-out reads the inserted outbox item, nothing reads an old image,
 * and a record of half the size is half the stream's read and storage.
 */
export const TABLE_STREAM_VIEW = 'NEW_IMAGE' as const;

export const SERVICE_NAME = 'licensing';
