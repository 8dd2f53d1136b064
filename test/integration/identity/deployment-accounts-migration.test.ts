import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { recordDeploymentAccounts } from '../../../shared/platform/data/migrations/deployment-accounts.js';
import { localData, tableOfItsOwn } from '../../support/table.js';

describe("recording an upgraded stage's accounts (DECISIONS §20, docs/deploy.md Upgrading)", () => {
  it('counts the users an older version made, records them once, and leaves a record made since alone', async () => {
    const tableName = await tableOfItsOwn();
    const client = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: inject('dynamoEndpoint'), region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }));
    const data = localData('all', tableName);
    expect(await recordDeploymentAccounts(client, tableName)).toEqual({ accounts: 0, recorded: false });

    // Two accounts as an older version wrote them: a user item each, and no record of the deployment's accounts.
    for (const userId of ['usr_aaaaaaaaaaaaaaaaaaaaaaaa', 'usr_bbbbbbbbbbbbbbbbbbbbbbbb']) {
      const { Item } = data.entities.user.put({ userId, email: `${userId}@example.com`, name: 'Old', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' }).params() as { Item: Record<string, unknown> };
      await client.send(new PutCommand({ TableName: tableName, Item }));
    }
    expect(await recordDeploymentAccounts(client, tableName)).toEqual({ accounts: 2, recorded: true });
    expect((await data.entities.deploymentAccounts.get({}).go({ consistent: true })).data?.accounts).toBe(2);
    // Again: the record stands (an account made since the upgrade would have made it too).
    expect(await recordDeploymentAccounts(client, tableName)).toEqual({ accounts: 2, recorded: false });
    expect((await data.entities.deploymentAccounts.get({}).go({ consistent: true })).data?.accounts).toBe(2);
  });
});
