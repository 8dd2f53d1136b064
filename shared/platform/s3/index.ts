/** The public surface of shared/platform/s3: what the contexts and the functions use of it. */
export { createStorageClient } from './storage-client.js';
export type { StorageClient } from './storage-client.js';
