import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { inject } from 'vitest';
import { createDataService } from '../../shared/data/service.js';

/** Direct access to the local table, for arranging states the API cannot reach quickly (an old session). */
export function localData() {
  const client = DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint: inject('dynamoEndpoint'), region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
  );
  return createDataService(client, inject('tableName'));
}
