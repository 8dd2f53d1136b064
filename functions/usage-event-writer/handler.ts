import { loadConfig } from '../../shared/config.js';
import { createLoadedDeps } from '../../shared/runtime.js';
import { createUsageEventWriterHandler } from './app.js';

export const handler = createUsageEventWriterHandler(await createLoadedDeps(loadConfig(), 'usageWriter'));
