import { loadConfig } from '../../shared/config.js';
import { createExportWorkerDeps, createExportWorkerHandler } from './app.js';

export const handler = createExportWorkerHandler(createExportWorkerDeps(loadConfig()));
