import middy from '@middy/core';
import httpRouterHandler from '@middy/http-router';
import { cors } from '../../shared/http/cors.js';
import { errorHandler } from '../../shared/http/error-handler.js';
import type { HttpEvent, HttpResult } from '../../shared/http/types.js';
import { createActivityRecorder } from '../../shared/licensing/activity.js';
import { createProductCatalog } from '../../shared/licensing/product-catalog.js';
import type { Deps } from '../../shared/runtime.js';
import { licenseRoutes } from '../edge/license-routes.js';

/** The public API (`/public/v1`): the product's public key identifies it; open to any origin. */
export function createPublicHandler(deps: Deps) {
  const context = { catalog: createProductCatalog(deps), activity: createActivityRecorder(deps) };
  const routes = [...licenseRoutes(deps, context, { prefix: '/public/v1', publicKey: true })];
  // onError runs in reverse order: the error handler shapes the answer, then CORS decorates it.
  return middy<HttpEvent, HttpResult>()
    .use(cors({ kind: 'open' }))
    .use(errorHandler())
    .handler(httpRouterHandler(routes) as unknown as (event: HttpEvent) => Promise<HttpResult>);
}
