import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { backfillOverview } from '../shared/insights/overview/backfill.js';

/**
 * `npx tsx scripts/backfill-overview.ts <table name> <upgrade time, ISO>`: once, after upgrading a stack deployed
 * before the overview (docs/deploy.md, Upgrading): builds its counts from the payments, subscriptions and licenses
 * created before the upgrade. Uses the AWS credentials and region of the environment.
 */
const [tableName, before] = process.argv.slice(2);
if (!tableName || !before || Number.isNaN(Date.parse(before))) {
  console.error('Usage: npx tsx scripts/backfill-overview.ts <table name> <upgrade time, e.g. 2026-11-28T10:00:00Z>');
  process.exit(2);
}
const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const { payments, subscriptions, licenses, counts } = await backfillOverview(client, tableName, new Date(before));
console.log(`Counted ${payments} payment(s), ${subscriptions} subscription(s) and ${licenses} license(s) into ${counts} overview count(s).`);
