import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { recordDeploymentAccounts } from '../shared/platform/data/migrations/deployment-accounts.js';

/**
 * `npx tsx scripts/record-deployment-accounts.ts <table name>`: once, after upgrading a stack deployed before the
 * `registration` setting existed (docs/deploy.md, Upgrading). Uses the AWS credentials and region of the environment.
 */
const tableName = process.argv[2];
if (!tableName) {
  console.error('Usage: npx tsx scripts/record-deployment-accounts.ts <table name> (the stack output TableName)');
  process.exit(2);
}
const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const { accounts, recorded } = await recordDeploymentAccounts(client, tableName);
console.log(
  accounts === 0
    ? 'No account yet: the first to register will be the deployment\'s first account.'
    : recorded
      ? `Recorded the deployment's ${accounts} account(s): under registration=invite, only invited addresses register now.`
      : `The deployment's accounts were recorded already (${accounts} found): nothing to do.`,
);
