import { createUsageQueue } from '../../shared/insights/index.js';
import { httpApp, originSecretOf, type Route } from '../../shared/platform/http/index.js';
import { createActivityRecorder, createKeyring, createProductCatalog, createReleaseCatalog, createResponseSigner } from '../../shared/licensing/index.js';
import { createRateLimiter } from '../../shared/platform/rate-limits/index.js';
import type { Config, Deps } from '../../shared/platform/index.js';
import { createSecretBox, SECRET_ACCESS } from '../../shared/platform/secrets/index.js';
import { createDownloadLinks } from '../../shared/platform/storage/index.js';
import { licenseRoutes } from '../shared/license-routes.js';
import { feedRoutes } from './feed-routes.js';
import { composerRoutes } from './composer-routes.js';
import { updateRoutes } from './update-routes.js';

/** The table, and the base of the links it builds (update-check `package`). */
export type EdgeDeps = Deps<Config<'links'>>;

/** Every route of the edge API, with this container's caches and bookkeeping, shared by every request it serves. */
export function edgeRoutes(deps: EdgeDeps): Route[] {
  const products = createProductCatalog(deps);
  const usage = createUsageQueue(deps.config);
  const activity = createActivityRecorder({ ...deps, usage });
  // Products' signing keys are opened (KMS Decrypt) on first use and kept for the container.
  const signer = createResponseSigner(createKeyring(createSecretBox(deps.config, SECRET_ACCESS.edge)));
  const context = { catalog: products, activity, limits: createRateLimiter(deps), signer };
  const releases = createReleaseCatalog(deps);
  const links = createDownloadLinks(deps.config, () => deps.clients.table.config.credentials());
  return [
    ...licenseRoutes(deps, context, { prefix: '/v1', publicKey: false }),
    ...updateRoutes(deps, { products, releases, links, activity, signer, limits: context.limits }),
    ...feedRoutes(deps, { products, releases, links, limits: context.limits }),
    ...composerRoutes(deps, { products, releases, links, usage, limits: context.limits }),
  ];
}

/** The edge API (`/v1`): unauthenticated, high-volume calls from installed plugins; and the Composer repository (`/composer`). */
export function createEdgeHandler(deps: EdgeDeps) {
  return httpApp(edgeRoutes(deps), { cors: { kind: 'open' }, originSecret: originSecretOf(deps.config), data: deps.data });
}
