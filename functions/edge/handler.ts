import { createDeps, FUNCTION_CONFIG_SECTIONS, loadConfig } from '../../shared/platform/index.js';
import { createEdgeHandler } from './app.js';

export const handler = createEdgeHandler(createDeps(loadConfig(process.env, FUNCTION_CONFIG_SECTIONS.edge), 'edge'));
