import { loadConfig } from '../../shared/platform/config.js';
import { createLoadedDeps } from '../../shared/platform/runtime.js';
import { createUsageEventWriterHandler } from './app.js';

export const handler = createUsageEventWriterHandler(await createLoadedDeps(loadConfig(), 'usageWriter'));
