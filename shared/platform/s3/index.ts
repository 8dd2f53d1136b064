/** The public surface of shared/platform/s3: the release bucket's client, loaded on first use (function set-up only). */
export { createStorageClient } from './storage-client.js';
export type { S3Sdk, StorageClient } from './storage-client.js';
