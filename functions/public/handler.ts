import { FUNCTION_CONFIG_SECTIONS, loadConfig } from '../../shared/platform/config.js';
import { createPublicDeps, createPublicHandler } from './app.js';

export const handler = createPublicHandler(createPublicDeps(loadConfig(process.env, FUNCTION_CONFIG_SECTIONS.public)));
