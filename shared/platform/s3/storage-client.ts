import type { S3Client } from '@aws-sdk/client-s3';
import { awsClientOptions } from '../clients.js';
import type { CoreConfig } from '../config.js';

/** S3's client and the commands the service sends (shared/platform/aws/s3-sdk.ts). */
export type S3Sdk = typeof import('../aws/s3-sdk.js');

/**
 * The release bucket's client with S3's SDK, made on first use: the SDK (about 130 KB with its XML and checksum parts)
 * is loaded by the first request that stores or reads a file, not at every cold start of the management function,
 * whose other routes never need it. The workers whose every job uses it make it at init.
 */
export type StorageClient = () => Promise<{ s3: S3Client; sdk: S3Sdk }>;

export function createStorageClient(config: CoreConfig): StorageClient {
  let made: ReturnType<StorageClient> | undefined;
  return () =>
    (made ??= import('../aws/s3-sdk.js').then((sdk) => ({
      sdk,
      s3: new sdk.S3Client({ ...awsClientOptions(config, config.endpoints.s3), forcePathStyle: Boolean(config.endpoints.s3) }),
    })));
}
