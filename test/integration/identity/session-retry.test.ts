import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { resumeSession, startSession } from '../../../shared/identity/accounts/sessions.js';
import { createDataService } from '../../../shared/platform/data/service.js';
import { systemClock } from '../../../shared/platform/runtime.js';
import * as dataModel from '../../../shared/platform/data/model.js';

/**
 * The local table through a client that loses the answer of its first PutItem after the item has landed, as a
 * request timeout does: the SDK sends it again, and the retry's condition meets the item the first one wrote.
 */
function dataLosingFirstPutAnswer() {
  const raw = new DynamoDBClient({ endpoint: inject('dynamoEndpoint'), region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts: 2 });
  let puts = 0;
  raw.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      if (context.commandName === 'PutItemCommand' && ++puts === 1) throw Object.assign(new Error('answer lost'), { name: 'TimeoutError', $metadata: {} });
      return result;
    },
    { step: 'finalizeRequest', name: 'loseFirstPutAnswer' },
  );
  return createDataService(DynamoDBDocumentClient.from(raw), inject('tableName'), undefined, dataModel);
}

describe('a session whose create is retried after a lost answer', () => {
  it('signs in with the session that landed, instead of answering 500 for a "collision" with itself', async () => {
    const deps = { data: dataLosingFirstPutAnswer(), clock: systemClock };
    const token = await startSession(deps, 'usr_retried');
    expect(await resumeSession(deps, token)).toMatchObject({ userId: 'usr_retried' });
  });
});
