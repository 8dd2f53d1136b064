import { FUNCTION_CONFIG_SECTIONS, loadConfig } from '../../shared/platform/index.js';
import { createManagementDeps, createManagementHandler } from './app.js';

const deps = createManagementDeps(loadConfig(process.env, FUNCTION_CONFIG_SECTIONS.management));
// Every route uses the data model: loaded at init (Lambda's init phase), not by the first request.
await deps.data.load();
export const handler = createManagementHandler(deps);
