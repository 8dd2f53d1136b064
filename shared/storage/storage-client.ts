import { S3Client } from '@aws-sdk/client-s3';
import { awsClientOptions } from '../clients.js';
import type { CoreConfig } from '../config.js';

/** The release bucket's client, for the function that stores and inspects release files (management). */
export function createStorageClient(config: CoreConfig): S3Client {
  return new S3Client({ ...awsClientOptions(config, config.endpoints.s3), forcePathStyle: Boolean(config.endpoints.s3) });
}
