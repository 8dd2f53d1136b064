import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import type { CoreConfig } from './config.js';
import { enforceKeyAccess } from './data/key-access-guard.js';
import type { TableKeyAccess } from './data/key-access.js';

/** Credentials for local stand-ins, which accept any. */
export const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

/**
 * What every AWS client of the service shares: the region, short timeouts (a slow dependency answers
 * 503 quickly rather than holding the caller), and the local endpoint with its credentials when config has one.
 */
export function awsClientOptions(config: CoreConfig, endpoint: string | undefined) {
  return {
    region: config.region,
    maxAttempts: 3,
    requestHandler: new NodeHttpHandler({ connectionTimeout: 1000, requestTimeout: 3000 }),
    ...(endpoint ? { endpoint, credentials: LOCAL_CREDENTIALS } : {}),
  };
}

export type Clients = { dynamo: DynamoDBDocumentClient };

/**
 * The table client, the one client every function uses; built once per container. Each function creates
 * the other clients it needs itself (`shared/storage/`, `shared/webhooks/delivery-queue.ts`), so a bundle
 * carries only the clients its function calls. `keyAccess` is the function's share of the table (as the
 * stack grants it): IAM holds it in AWS, and the table client itself holds it locally.
 */
export function createClients(config: CoreConfig, keyAccess: TableKeyAccess): Clients {
  const tableClient = new DynamoDBClient(awsClientOptions(config, config.endpoints.dynamodb));
  if (config.runtime === 'local' && keyAccess !== 'all') enforceKeyAccess(tableClient, keyAccess);
  return { dynamo: DynamoDBDocumentClient.from(tableClient, { marshallOptions: { removeUndefinedValues: true } }) };
}
