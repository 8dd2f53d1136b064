import { loadConfig } from '../../shared/config.js';
import { createDeps } from '../../shared/runtime.js';
import { createUsageEventWriterHandler } from './app.js';

export const handler = createUsageEventWriterHandler(createDeps(loadConfig(), 'usageWriter'));
