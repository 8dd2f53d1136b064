import { httpApp } from '../../shared/http/app.js';
import type { Route } from '../../shared/http/route.js';
import { createActivityRecorder } from '../../shared/licensing/activity.js';
import { createProductCatalog } from '../../shared/licensing/product-catalog.js';
import { createRateLimiter } from '../../shared/rate-limits/rate-limiter.js';
import type { Deps } from '../../shared/runtime.js';
import { licenseRoutes } from '../shared/license-routes.js';

/** Every route of the public API, with this container's product cache and bookkeeping. */
export function publicRoutes(deps: Deps): Route[] {
  const context = { catalog: createProductCatalog(deps), activity: createActivityRecorder(deps), limits: createRateLimiter(deps) };
  return licenseRoutes(deps, context, { prefix: '/public/v1', publicKey: true });
}

/** The public API (`/public/v1`): the product's public key identifies it; open to any origin. */
export function createPublicHandler(deps: Deps) {
  return httpApp(publicRoutes(deps), { kind: 'open' });
}
