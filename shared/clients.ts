import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import type { Config } from './config.js';

/** Credentials for local stand-ins, which accept any. */
const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

export type Clients = {
  dynamo: DynamoDBDocumentClient;
  s3: S3Client;
  ses: SESv2Client;
};

/** Built once per container; local endpoints come from config, so the same code runs on the local stack. */
export function createClients(config: Config): Clients {
  const common = (endpoint: string | undefined) => ({
    region: config.region,
    maxAttempts: 3,
    requestHandler: new NodeHttpHandler({ connectionTimeout: 1000, requestTimeout: 3000 }),
    ...(endpoint ? { endpoint, credentials: LOCAL_CREDENTIALS } : {}),
  });
  const dynamo = DynamoDBDocumentClient.from(new DynamoDBClient(common(config.endpoints.dynamodb)), {
    marshallOptions: { removeUndefinedValues: true },
  });
  const s3 = new S3Client({ ...common(config.endpoints.s3), forcePathStyle: Boolean(config.endpoints.s3) });
  const ses = new SESv2Client(common(config.endpoints.ses));
  return { dynamo, s3, ses };
}
