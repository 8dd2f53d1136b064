import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { migrateProductRecords } from '../shared/platform/data/migrations/product-records.js';

/**
 * `npx tsx scripts/migrate-product-records.ts <table name>`: once, after upgrading a stack deployed before feedback,
 * deactivation reasons and daily counts had a partition of their own (docs/deploy.md, Upgrading). Uses the AWS
 * credentials and region of the environment.
 */
const tableName = process.argv[2];
if (!tableName) {
  console.error('Usage: npx tsx scripts/migrate-product-records.ts <table name> (the stack output TableName)');
  process.exit(2);
}
const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const { moved, alreadyThere } = await migrateProductRecords(client, tableName);
console.log(`Moved ${moved} record(s); ${alreadyThere} daily count(s) added to their copy already there.`);
