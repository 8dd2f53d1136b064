import { loadConfig } from '../../shared/config.js';
import { createDeps } from '../../shared/runtime.js';
import { createManagementHandler } from './app.js';

export const handler = createManagementHandler(createDeps(loadConfig(), 'all'));
