import { loadConfig } from '../../shared/config.js';
import { createPortalDeps, createPortalHandler } from './app.js';

export const handler = createPortalHandler(createPortalDeps(loadConfig()));
