import { loadConfig } from '../../shared/platform/config.js';
import { createImportQueue } from '../../shared/portability/imports/import-queue.js';
import { createLoadedDeps } from '../../shared/platform/runtime.js';
import { createStorageClient } from '../../shared/platform/storage/storage-client.js';
import { createImportWorkerHandler } from './app.js';

const config = loadConfig();
const deps = await createLoadedDeps(config, 'importWorker');
const storage = createStorageClient(config);
// Every import reads its file: S3's SDK is loaded at init, as the data model is.
await storage();
export const handler = createImportWorkerHandler({
  ...deps,
  clients: { ...deps.clients, s3: storage },
  queue: createImportQueue(config),
});
