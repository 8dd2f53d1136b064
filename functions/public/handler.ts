import { FUNCTION_CONFIG_SECTIONS, loadConfig } from '../../shared/platform/index.js';
import { createPublicDeps, createPublicHandler } from './app.js';

export const handler = createPublicHandler(createPublicDeps(loadConfig(process.env, FUNCTION_CONFIG_SECTIONS.public)));
