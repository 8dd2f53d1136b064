import { loadConfig } from '../../shared/config.js';
import { createExportWorkerDeps, createExportWorkerHandler } from './app.js';

const deps = createExportWorkerDeps(loadConfig());
// Every export uses the data model: loaded at init (Lambda's init phase), not by the first message.
await deps.data.load();
export const handler = createExportWorkerHandler(deps);
