import { loadConfig } from '../../shared/config.js';
import { createDeps } from '../../shared/runtime.js';
import { createPublicHandler } from './app.js';

export const handler = createPublicHandler(createDeps(loadConfig(), 'licensing'));
