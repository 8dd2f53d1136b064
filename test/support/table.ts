import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { inject } from 'vitest';
import { ensureTable } from '../../infra/local/create-table.js';
import { enforceKeyAccess } from '../../shared/platform/data/key-access-guard.js';
import type { TableKeyAccess } from '../../shared/platform/data/key-access.js';
import { createDataService } from '../../shared/platform/data/service.js';
import * as dataModel from '../../shared/platform/data/model.js';

const localClient = () => new DynamoDBClient({ endpoint: inject('dynamoEndpoint'), region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });

/**
 * Direct access to the local table, for arranging states the API cannot reach quickly (an old session),
 * or for running a job's domain function as its function would: with `keyAccess`, limited to that
 * function's keys as the local stack limits it. `tableName`: another table than the stack's (`tableOfItsOwn`).
 */
export function localData(keyAccess: TableKeyAccess = 'all', tableName = inject('tableName')) {
  const raw = localClient();
  if (keyAccess !== 'all') enforceKeyAccess(raw, keyAccess);
  return createDataService(DynamoDBDocumentClient.from(raw), tableName, undefined, dataModel);
}

/**
 * A new table in the local DynamoDB, built as the stack's (same keys, indexes and stream), for a test that reads the
 * stream with a pipeline of its own: the stack's fan-out reads only the stack's table.
 */
export async function tableOfItsOwn(): Promise<string> {
  const client = localClient();
  const tableName = `test-${randomUUID()}`;
  try {
    await ensureTable(client, tableName);
  } finally {
    client.destroy();
  }
  return tableName;
}
