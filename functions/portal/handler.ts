import { FUNCTION_CONFIG_SECTIONS, loadConfig } from '../../shared/config.js';
import { createPortalDeps, createPortalHandler } from './app.js';

export const handler = createPortalHandler(createPortalDeps(loadConfig(process.env, FUNCTION_CONFIG_SECTIONS.portal)));
