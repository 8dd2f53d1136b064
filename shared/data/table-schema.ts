/**
 * The one DynamoDB table: its key attributes and global secondary indexes.
 * The CDK stack and the local runtime both create the table from this, so they cannot drift.
 */
export const TABLE_KEYS = { partitionKey: 'pk', sortKey: 'sk', timeToLive: 'ttl' } as const;

export const GLOBAL_INDEXES = [1, 2, 3, 4, 5].map((n) => ({
  indexName: `gsi${n}`,
  partitionKey: `gsi${n}pk`,
  sortKey: `gsi${n}sk`,
}));

export const SERVICE_NAME = 'licensing';
