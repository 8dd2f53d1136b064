import { loadConfig } from '../../shared/config.js';
import { createDeps } from '../../shared/runtime.js';
import { createEdgeHandler } from './app.js';

export const handler = createEdgeHandler(createDeps(loadConfig(), 'edge'));
