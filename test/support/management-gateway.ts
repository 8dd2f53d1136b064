import type { Server } from 'node:http';
import { inject } from 'vitest';
import { createManagementDeps, createManagementHandler } from '../../functions/management/app.js';
import { freePort } from '../../infra/local/ports.js';
import { createGateway, type LambdaHandler } from '../../infra/local/gateway.js';
import { ROUTES, type Surface } from '../../infra/routes.js';
import { ALL_CONFIG_SECTIONS, loadConfig } from '../../shared/platform/config.js';

export type ManagementGateway = { url: string; close: () => Promise<void> };

/**
 * The management function of a deployment configured with `env` (beside the local stack's table), behind a local
 * gateway of its own: how a test runs the service with settings the shared stack does not have (OAuth providers, no
 * dashboard). It shares the stack's DynamoDB Local and table, so what it writes (users, sessions) is the same data the
 * shared stack serves. Only management routes answer here.
 */
export async function startManagementGateway(env: Record<string, string>): Promise<ManagementGateway> {
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const config = loadConfig({
    RUNTIME: 'local',
    TABLE_NAME: inject('tableName'),
    DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
    PUBLIC_BASE_URL: url,
    RATE_LIMIT_SCALE: '1000',
    ...env,
  }, ALL_CONFIG_SECTIONS);
  const handler = createManagementHandler(createManagementDeps(config)) as unknown as LambdaHandler;
  const server: Server = createGateway({ routes: ROUTES, handlers: { management: handler } as Record<Surface, LambdaHandler>, localRoutes: {} });
  await new Promise<void>((resolve) => server.listen(port, resolve));
  return {
    url,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
