import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { createClients } from '../../../shared/platform/clients.js';
import { loadConfig } from '../../../shared/platform/config.js';

const TABLE = 'edge';
const config = (runtime: 'local' | 'aws') => loadConfig({ RUNTIME: runtime, TABLE_NAME: TABLE, DYNAMODB_ENDPOINT: 'http://127.0.0.1:9' });
/** A key outside the licensing role's partition keys (a user), and one inside it (a license). */
const USER_KEY = { pk: { S: '$licensing#userId_usr_a' }, sk: { S: '$user_1' } };
const LICENSE_KEY = { pk: { S: '$licensing#licenseKey_WIDGET-A' }, sk: { S: '$license_1' } };

/** Sends `command` through `client`, answered after the build step (where the guard sits): the refusal, if any. */
async function refusal(client: Pick<DynamoDBClient, 'send' | 'middlewareStack'>, command: object): Promise<string | undefined> {
  client.middlewareStack.add(() => async () => ({ output: { $metadata: {} }, response: {} }), { step: 'build', priority: 'low', name: 'answerWithoutNetwork' });
  return (client.send as (c: object) => Promise<unknown>)(command).then(
    () => undefined,
    (error: Error) => error.name,
  );
}

describe('the table clients', () => {
  it('hold a restricted role on the local stack, the direct one as the document one; IAM does it in AWS', async () => {
    const local = createClients(config('local'), 'edge');
    expect(await refusal(local.table, new GetItemCommand({ TableName: TABLE, Key: USER_KEY }))).toBe('AccessDeniedException');
    expect(await refusal(local.documents, new GetItemCommand({ TableName: TABLE, Key: USER_KEY }))).toBe('AccessDeniedException');
    expect(await refusal(createClients(config('local'), 'edge').table, new GetItemCommand({ TableName: TABLE, Key: LICENSE_KEY }))).toBeUndefined();
    expect(await refusal(createClients(config('aws'), 'edge').table, new GetItemCommand({ TableName: TABLE, Key: USER_KEY }))).toBeUndefined();
  });

  it('share one connection pool, and only the direct one builds each command once (the document client refuses to)', () => {
    const { table, documents } = createClients(config('aws'), 'edge');
    expect(documents.config.requestHandler).toBe(table.config.requestHandler);
    expect(table.config.cacheMiddleware).toBe(true);
    expect(documents.config.cacheMiddleware).not.toBe(true);
  });

  it('send no user-agent headers, which the SDK rebuilds per request, where a client of the SDK defaults sends both', async () => {
    const headersSent = async (client: DynamoDBClient) => {
      let sent: Record<string, string> = {};
      client.middlewareStack.add(
        () => async (args) => {
          sent = (args.request as { headers: Record<string, string> }).headers;
          return { output: { $metadata: {} }, response: {} };
        },
        { step: 'finalizeRequest', priority: 'low', name: 'answerWithoutNetwork' },
      );
      await client.send(new GetItemCommand({ TableName: TABLE, Key: LICENSE_KEY }));
      return Object.keys(sent);
    };
    const { table, documents } = createClients(config('aws'), 'edge');
    for (const client of [table, documents]) {
      const headers = await headersSent(client);
      expect(headers).toContain('authorization');
      expect(headers).not.toContain('user-agent');
      expect(headers).not.toContain('x-amz-user-agent');
    }
    const sdkDefaults = new DynamoDBClient({ region: 'eu-west-1', endpoint: 'http://127.0.0.1:9', credentials: { accessKeyId: 'a', secretAccessKey: 'b' } });
    expect(await headersSent(sdkDefaults)).toEqual(expect.arrayContaining(['user-agent', 'x-amz-user-agent']));
  });
});
