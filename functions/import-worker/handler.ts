import { createLoadedDeps, loadConfig } from '../../shared/platform/index.js';
import { createImportQueue } from '../../shared/portability/index.js';
import { createStorageClient } from '../../shared/platform/s3/index.js';
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
