import { createUsageQueue } from '../../shared/analytics/usage-queue.js';
import { httpApp } from '../../shared/http/app.js';
import type { Route } from '../../shared/http/route.js';
import { createActivityRecorder } from '../../shared/licensing/activity.js';
import { createProductCatalog } from '../../shared/licensing/product-catalog.js';
import { createRateLimiter } from '../../shared/rate-limits/rate-limiter.js';
import type { Config } from '../../shared/config.js';
import type { Deps } from '../../shared/runtime.js';
import { SECRET_ACCESS } from '../../shared/secrets/secret-access.js';
import { createSecretBox } from '../../shared/secrets/secret-box.js';
import { createKeyring, createResponseSigner } from '../../shared/signing/response-signer.js';
import { createDownloadLinks } from '../../shared/storage/download-links.js';
import { createReleaseCatalog } from '../../shared/updates/release-catalog.js';
import { licenseRoutes } from '../shared/license-routes.js';
import { updateRoutes } from './update-routes.js';

/** The table, and the base of the links it builds (update-check `package`). */
export type EdgeDeps = Deps<Config<'links'>>;

/** Every route of the edge API, with this container's caches and bookkeeping, shared by every request it serves. */
export function edgeRoutes(deps: EdgeDeps): Route[] {
  const products = createProductCatalog(deps);
  const activity = createActivityRecorder({ ...deps, usage: createUsageQueue(deps.config) });
  // Products' signing keys are opened (KMS Decrypt) on first use and kept for the container.
  const signer = createResponseSigner(createKeyring(createSecretBox(deps.config, SECRET_ACCESS.edge)));
  const context = { catalog: products, activity, limits: createRateLimiter(deps), signer };
  return [
    ...licenseRoutes(deps, context, { prefix: '/v1', publicKey: false }),
    ...updateRoutes(deps, {
      products,
      releases: createReleaseCatalog(deps),
      links: createDownloadLinks(deps.config, () => deps.clients.table.config.credentials()),
      activity,
      signer,
      limits: context.limits,
    }),
  ];
}

/** The edge API (`/v1`): unauthenticated, high-volume calls from installed plugins. */
export function createEdgeHandler(deps: EdgeDeps) {
  return httpApp(edgeRoutes(deps), { cors: { kind: 'open' }, originVerifyToken: deps.config.originVerifyToken, data: deps.data });
}
