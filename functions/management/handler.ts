import { loadConfig } from '../../shared/config.js';
import { createManagementDeps, createManagementHandler } from './app.js';

export const handler = createManagementHandler(createManagementDeps(loadConfig()));
