import type { Server } from 'node:http';
import { inject } from 'vitest';
import { createManagementDeps, createManagementHandler } from '../../functions/management/app.js';
import { freePort } from '../../infra/local/ports.js';
import { createGateway, type LambdaHandler } from '../../infra/local/gateway.js';
import { DASHBOARD_DIST } from '../../infra/dashboard-build.js';
import { dashboardFiles } from '../../infra/local/dashboard-files.js';
import { ROUTES, SERVICE_PATH_PREFIXES, type Surface } from '../../infra/routes.js';
import { ALL_CONFIG_SECTIONS, loadConfig } from '../../shared/platform/config.js';

export type ManagementGateway = { url: string; close: () => Promise<void> };

/**
 * The management function of a deployment configured with `env` (beside the local stack's table), behind a local
 * gateway of its own: how a test runs the service with settings the shared stack does not have (OAuth providers, no
 * dashboard, `registration=invite`). It shares the stack's DynamoDB Local and table (unless `env` names another), so what
 * it writes (users, sessions) is the same data the shared stack serves. Only management routes answer here, and with
 * `serveDashboard` the built dashboard, as the stack's gateway serves it.
 */
export async function startManagementGateway(env: Record<string, string>, { serveDashboard = false } = {}): Promise<ManagementGateway> {
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
  const dashboard = serveDashboard ? dashboardFiles({ directory: DASHBOARD_DIST, reservedPrefixes: [...SERVICE_PATH_PREFIXES], uploadOrigin: url }) : undefined;
  const server: Server = createGateway({ routes: ROUTES, handlers: { management: handler } as Record<Surface, LambdaHandler>, localRoutes: {}, dashboard });
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
