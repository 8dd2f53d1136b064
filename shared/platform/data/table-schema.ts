/**
 * The one DynamoDB table: its key attributes, global secondary indexes and stream.
 * The CDK stack and the local runtime both create the table from this, so they cannot drift.
 *
 * Its shape is fixed as of 1.0.0 (DECISIONS §21; `infra/releases/table-shape.json` and test/infra/table-shape.test.ts
 * hold it): CloudFormation cannot change an index's keys or projection, nor the stream's view, in place, so a deployed
 * stage could not take the release that did. A new access pattern is a new index, added in one release while the
 * old one is removed in a later one (docs/deploy.md, "Changing the table's shape").
 */
export const TABLE_KEYS = { partitionKey: 'pk', sortKey: 'sk', timeToLive: 'ttl' } as const;

/**
 * What an index copies of each item besides the keys: everything, or nothing. Never a list of attributes: the list
 * would grow with every new attribute of an entity, and each change of it would be a change of the table's shape.
 */
export type IndexProjection = { type: 'ALL' } | { type: 'KEYS_ONLY' };

/** Every index serves lists that read whole items (docs/data-model.md, "Index projections"). */
export const GLOBAL_INDEXES = [1, 2, 3, 4, 5].map((n) => ({
  indexName: `gsi${n}`,
  partitionKey: `gsi${n}pk`,
  sortKey: `gsi${n}sk`,
  projection: { type: 'ALL' } as IndexProjection,
}));

/**
 * The stream carries new images only: the outbox fan-out reads the inserted outbox item, nothing reads an old image,
 * and a record of half the size is half the stream's read and storage.
 */
export const TABLE_STREAM_VIEW = 'NEW_IMAGE' as const;

export const SERVICE_NAME = 'licensing';
