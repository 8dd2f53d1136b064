import { FUNCTION_CONFIG_SECTIONS, loadConfig } from '../../shared/platform/config.js';
import { createDeps } from '../../shared/platform/runtime.js';
import { createEdgeHandler } from './app.js';

export const handler = createEdgeHandler(createDeps(loadConfig(process.env, FUNCTION_CONFIG_SECTIONS.edge), 'edge'));
