import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import type { Config } from './config.js';
import { enforceKeyAccess } from './data/key-access-guard.js';
import type { TableKeyAccess } from './data/key-access.js';

/** Credentials for local stand-ins, which accept any. */
const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

export type Clients = {
  dynamo: DynamoDBDocumentClient;
  s3: S3Client;
  ses: SESv2Client;
};

/**
 * Built once per container; local endpoints come from config, so the same code runs on the local stack.
 * `keyAccess` is the function's share of the table (as the stack grants it): IAM holds it in AWS, and
 * the table client itself holds it locally.
 */
export function createClients(config: Config, keyAccess: TableKeyAccess): Clients {
  const common = (endpoint: string | undefined) => ({
    region: config.region,
    maxAttempts: 3,
    requestHandler: new NodeHttpHandler({ connectionTimeout: 1000, requestTimeout: 3000 }),
    ...(endpoint ? { endpoint, credentials: LOCAL_CREDENTIALS } : {}),
  });
  const tableClient = new DynamoDBClient(common(config.endpoints.dynamodb));
  if (config.runtime === 'local' && keyAccess !== 'all') enforceKeyAccess(tableClient, keyAccess);
  const dynamo = DynamoDBDocumentClient.from(tableClient, { marshallOptions: { removeUndefinedValues: true } });
  const s3 = new S3Client({ ...common(config.endpoints.s3), forcePathStyle: Boolean(config.endpoints.s3) });
  const ses = new SESv2Client(common(config.endpoints.ses));
  return { dynamo, s3, ses };
}
