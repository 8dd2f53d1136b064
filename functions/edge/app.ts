import middy from '@middy/core';
import httpRouterHandler from '@middy/http-router';
import { cors } from '../../shared/http/cors.js';
import { errorHandler } from '../../shared/http/error-handler.js';
import type { HttpEvent, HttpResult } from '../../shared/http/types.js';
import { createActivityRecorder } from '../../shared/licensing/activity.js';
import { createProductCatalog } from '../../shared/licensing/product-catalog.js';
import type { Deps } from '../../shared/runtime.js';
import { createReleaseCatalog } from '../../shared/updates/release-catalog.js';
import { licenseRoutes } from './license-routes.js';
import { updateRoutes } from './update-routes.js';

/** The edge API (`/v1`): unauthenticated, high-volume calls from installed plugins. */
export function createEdgeHandler(deps: Deps) {
  // Per-container caches and bookkeeping: built once, shared by every request this container serves.
  const products = createProductCatalog(deps);
  const context = { catalog: products, activity: createActivityRecorder(deps) };
  const routes = [
    ...licenseRoutes(deps, context, { prefix: '/v1', publicKey: false }),
    ...updateRoutes(deps, { products, releases: createReleaseCatalog(deps) }),
  ];
  // onError runs in reverse order: the error handler shapes the answer, then CORS decorates it.
  return middy<HttpEvent, HttpResult>()
    .use(cors({ kind: 'open' }))
    .use(errorHandler())
    .handler(httpRouterHandler(routes) as unknown as (event: HttpEvent) => Promise<HttpResult>);
}
