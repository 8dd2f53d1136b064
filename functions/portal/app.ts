import { type Config, createDeps, type Deps } from '../../shared/platform/index.js';
import { httpApp, originSecretOf, type Route } from '../../shared/platform/http/index.js';
import { createPaymentDeps, type PaymentDeps } from '../../shared/billing/index.js';
import { createSecretBox, SECRET_ACCESS } from '../../shared/platform/secrets/index.js';
import { createLinkSecret } from '../../shared/portal/index.js';
import { createRateLimiter } from '../../shared/platform/rate-limits/index.js';
import { createDownloadLinks } from '../../shared/platform/storage/index.js';
import { hostedPortalRoutes } from './hosted/routes.js';
import { portalRoutes } from './routes.js';

/** What the portal uses: its share of the table, and the payment provider for cancel. */
export type PortalDeps = Deps<Config<'links'>> & PaymentDeps;

export function createPortalDeps(config: Config<'links'>): PortalDeps {
  return { ...createDeps(config, 'portal'), payments: createPaymentDeps(config, createSecretBox(config, SECRET_ACCESS.portal)) };
}

/** Every route of the portal, with this container's rate limiter, link secret and presigner. */
export function createPortalRoutes(deps: PortalDeps): Route[] {
  const context = {
    limits: createRateLimiter(deps),
    secret: createLinkSecret(deps.config),
    links: createDownloadLinks(deps.config, () => deps.clients.table.config.credentials()),
  };
  return [...portalRoutes(deps, context), ...hostedPortalRoutes(deps, context)];
}

/**
 * The portal API (`/v1/portal`, and `/dl`): called by the vendor's server with its secret key, never by a browser,
 * so no origin gets CORS headers (a credentialed policy with no allowed origin). The hosted portal (`/portal`, and its
 * sign-in `/public/v1/portal/sign-in`) is its pages' own origin, which needs none either.
 */
export function createPortalHandler(deps: PortalDeps) {
  return httpApp(createPortalRoutes(deps), { cors: { kind: 'credentialed', origin: undefined }, originSecret: originSecretOf(deps.config), data: deps.data });
}
