import { createClients, type Clients } from './clients.js';
import type { CoreConfig } from './config.js';
import type { TableKeyAccess } from './data/key-access.js';
import { createDataService, type DataService } from './data/service.js';

export type Clock = { now: () => Date };
export const systemClock: Clock = { now: () => new Date() };

/**
 * What a function's domain code may use; built once per container from config. `C` is the function's config: the
 * core, and the sections it reads (`Deps<Config<'links'>>` builds links).
 */
export type Deps<C extends CoreConfig = CoreConfig> = {
  config: C;
  clients: Clients;
  data: DataService;
  clock: Clock;
};

/**
 * `keyAccess`: the function's role in `shared/platform/data/key-access.ts`, the one its stack binding names. The data model is
 * not loaded (`data.load()`): the edge and public functions load it for the routes that need it (shared/platform/http/app.ts).
 */
export function createDeps<C extends CoreConfig>(config: C, keyAccess: TableKeyAccess): Deps<C> {
  const clients = createClients(config, keyAccess);
  return { config, clients, data: createDataService({ documentsOver: clients.documents }, config.tableName, clients.table), clock: systemClock };
}

/**
 * Deps with the data model loaded: for a function every invocation of which uses it, so it is loaded at init (Lambda's
 * init phase, before the first event), and for scripts, benches and tests.
 */
export async function createLoadedDeps<C extends CoreConfig>(config: C, keyAccess: TableKeyAccess): Promise<Deps<C>> {
  const deps = createDeps(config, keyAccess);
  await deps.data.load();
  return deps;
}
