import { createLoadedDeps, loadConfig } from '../../shared/platform/index.js';
import { createUsageEventWriterHandler } from './app.js';

export const handler = createUsageEventWriterHandler(await createLoadedDeps(loadConfig(), 'usageWriter'));
