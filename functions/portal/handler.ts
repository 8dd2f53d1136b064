import { FUNCTION_CONFIG_SECTIONS, loadConfig } from '../../shared/platform/index.js';
import { createPortalDeps, createPortalHandler } from './app.js';

const deps = createPortalDeps(loadConfig(process.env, FUNCTION_CONFIG_SECTIONS.portal));
// Every route uses the data model: loaded at init (Lambda's init phase), not by the first request.
await deps.data.load();
export const handler = createPortalHandler(deps);
