import { ScanCommand, type DynamoDBDocumentClient, type ScanCommandOutput } from '@aws-sdk/lib-dynamodb';
import { createDataService } from '../service.js';
import { writeItem } from '../writes.js';
import * as dataModel from '../model.js';

export type AccountsRecord = { accounts: number; recorded: boolean };

/**
 * Records that a stage deployed before `registration` existed has accounts (docs/deploy.md, Upgrading): the
 * `deploymentAccounts` item with the number of users found, made only if absent. Without it the first registration
 * after the upgrade would pass for the deployment's first account under `registration=invite` (DECISIONS §20). A stage
 * where an account was made since the upgrade has the item already, and it is left as it is. A one-off, so it scans;
 * safe to run again.
 */
export async function recordDeploymentAccounts(client: DynamoDBDocumentClient, tableName: string): Promise<AccountsRecord> {
  let accounts = 0;
  let startKey: ScanCommandOutput['LastEvaluatedKey'];
  do {
    const page = await client.send(
      new ScanCommand({
        TableName: tableName,
        FilterExpression: '#entity = :user',
        ExpressionAttributeNames: { '#entity': '__edb_e__' },
        ExpressionAttributeValues: { ':user': 'user' },
        Select: 'COUNT',
        ExclusiveStartKey: startKey,
      }),
    );
    accounts += page.Count ?? 0;
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  if (accounts === 0) return { accounts, recorded: false };
  const data = createDataService(client, tableName, undefined, dataModel);
  const written = await writeItem(() => data.entities.deploymentAccounts.create({ accounts }).go({ response: 'none' }));
  return { accounts, recorded: written.written };
}
