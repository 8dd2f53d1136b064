import { FUNCTION_CONFIG_SECTIONS, loadConfig } from '../../shared/config.js';
import { createDeps } from '../../shared/runtime.js';
import { createEdgeHandler } from './app.js';

export const handler = createEdgeHandler(createDeps(loadConfig(process.env, FUNCTION_CONFIG_SECTIONS.edge), 'edge'));
