import { createUsageQueue } from '../../shared/insights/analytics/usage-queue.js';
import { httpApp } from '../../shared/platform/http/app.js';
import type { Route } from '../../shared/platform/http/route.js';
import { createActivityRecorder } from '../../shared/licensing/operations/activity.js';
import { createProductCatalog } from '../../shared/licensing/operations/product-catalog.js';
import { createRateLimiter } from '../../shared/platform/rate-limits/rate-limiter.js';
import type { Config } from '../../shared/platform/config.js';
import type { Deps } from '../../shared/platform/runtime.js';
import { SECRET_ACCESS } from '../../shared/platform/secrets/secret-access.js';
import { createSecretBox } from '../../shared/platform/secrets/secret-box.js';
import { createKeyring, createResponseSigner } from '../../shared/licensing/signing/response-signer.js';
import { createDownloadLinks } from '../../shared/platform/storage/download-links.js';
import { createReleaseCatalog } from '../../shared/licensing/updates/release-catalog.js';
import { licenseRoutes } from '../shared/license-routes.js';
import { updateRoutes } from './update-routes.js';
import { originSecretOf } from '../../shared/platform/http/front-door.js';

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
  return httpApp(edgeRoutes(deps), { cors: { kind: 'open' }, originSecret: originSecretOf(deps.config), data: deps.data });
}
