import { createClients, type Clients } from './clients.js';
import type { Config } from './config.js';
import { createDataService, type DataService } from './data/service.js';

export type Clock = { now: () => Date };
export const systemClock: Clock = { now: () => new Date() };

/** What a function's domain code may use; built once per container from config. */
export type Deps = {
  config: Config;
  clients: Clients;
  data: DataService;
  clock: Clock;
};

export function createDeps(config: Config): Deps {
  const clients = createClients(config);
  return { config, clients, data: createDataService(clients.dynamo, config.tableName), clock: systemClock };
}
