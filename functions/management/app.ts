import middy from '@middy/core';
import httpRouterHandler from '@middy/http-router';
import { cors } from '../../shared/http/cors.js';
import { errorHandler } from '../../shared/http/error-handler.js';
import { ok } from '../../shared/http/responses.js';
import type { HttpEvent, HttpResult } from '../../shared/http/types.js';
import type { Deps } from '../../shared/runtime.js';
import { routeBuilders } from './route.js';
import { activationRoutes } from './routes/activations.js';
import { apiKeyRoutes } from './routes/api-keys.js';
import { authRoutes } from './routes/auth.js';
import { customerRoutes } from './routes/customers.js';
import { licenseRoutes } from './routes/licenses.js';
import { productRoutes } from './routes/products.js';
import { webhookRoutes } from './routes/webhooks.js';
import { planRoutes } from './routes/plans.js';
import { releaseRoutes } from './routes/releases.js';

/** The management API (`/api`): session cookie or secret API key. */
export function createManagementHandler(deps: Deps) {
  const builders = routeBuilders(deps);
  const routes = [
    ...authRoutes(deps, builders),
    ...apiKeyRoutes(deps, builders),
    ...activationRoutes(deps, builders),
    ...productRoutes(deps, builders),
    ...licenseRoutes(deps, builders),
    ...customerRoutes(deps, builders),
    ...webhookRoutes(deps, builders),
    ...planRoutes(deps, builders),
    ...releaseRoutes(deps, builders),
    { method: 'GET' as const, path: '/health', handler: async () => ok({ status: 'ok' }) },
  ];
  // onError runs in reverse order: the error handler shapes the answer, then CORS decorates it.
  return middy<HttpEvent, HttpResult>()
    .use(cors({ kind: 'credentialed', origin: deps.config.dashboardUrl ? new URL(deps.config.dashboardUrl).origin : undefined }))
    .use(errorHandler())
    .handler(httpRouterHandler(routes) as unknown as (event: HttpEvent) => Promise<HttpResult>);
}
