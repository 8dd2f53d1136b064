import { loadConfig } from '../../shared/platform/index.js';
import { createExportWorkerDeps, createExportWorkerHandler } from './app.js';

const deps = createExportWorkerDeps(loadConfig());
// Every export uses the data model and writes its file: both are loaded at init (Lambda's init phase), not by the first message.
await Promise.all([deps.data.load(), deps.s3()]);
export const handler = createExportWorkerHandler(deps);
