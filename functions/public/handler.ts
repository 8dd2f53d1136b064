import { loadConfig } from '../../shared/config.js';
import { createPublicDeps, createPublicHandler } from './app.js';

export const handler = createPublicHandler(createPublicDeps(loadConfig()));
