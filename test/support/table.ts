import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { inject } from 'vitest';
import { enforceKeyAccess } from '../../shared/data/key-access-guard.js';
import type { TableKeyAccess } from '../../shared/data/key-access.js';
import { createDataService } from '../../shared/data/service.js';

/**
 * Direct access to the local table, for arranging states the API cannot reach quickly (an old session),
 * or for running a job's domain function as its function would: with `keyAccess`, limited to that
 * function's keys as the local stack limits it.
 */
export function localData(keyAccess: TableKeyAccess = 'all') {
  const raw = new DynamoDBClient({ endpoint: inject('dynamoEndpoint'), region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  if (keyAccess !== 'all') enforceKeyAccess(raw, keyAccess);
  return createDataService(DynamoDBDocumentClient.from(raw), inject('tableName'));
}
