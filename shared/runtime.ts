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

/** `keyAccess`: the function's role in `shared/data/key-access.ts`, the one its stack binding names. */
export function createDeps<C extends CoreConfig>(config: C, keyAccess: TableKeyAccess): Deps<C> {
  const clients = createClients(config, keyAccess);
  return { config, clients, data: createDataService(clients.dynamo, config.tableName, clients.table), clock: systemClock };
}
