import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const PROJECT_ROOT = resolve(fileURLToPath(import.meta.url), '../../..');

/**
 * Imports a function's entry file (relative to the project root) as Lambda loads it: the deployed
 * module, its configuration read from the environment as it loads. `instance` makes a fresh module per
 * local stack, as a new container would: a second stack in one process (the restart tests) must not
 * reuse handlers bound to the first stack's endpoints.
 */
export async function importFunctionEntry<Module>(entry: string, instance: number): Promise<Module> {
  return (await import(`${pathToFileURL(join(PROJECT_ROOT, entry)).href}?stack=${instance}`)) as Module;
}
