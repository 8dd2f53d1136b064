import { FUNCTION_CONFIG_SECTIONS, loadConfig } from '../../shared/config.js';
import { createManagementDeps, createManagementHandler } from './app.js';

export const handler = createManagementHandler(createManagementDeps(loadConfig(process.env, FUNCTION_CONFIG_SECTIONS.management)));
