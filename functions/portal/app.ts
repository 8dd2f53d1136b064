import type { Config } from '../../shared/platform/config.js';
import { httpApp } from '../../shared/platform/http/app.js';
import type { Route } from '../../shared/platform/http/route.js';
import { createPaymentDeps, type PaymentDeps } from '../../shared/billing/payments/payment-deps.js';
import { SECRET_ACCESS } from '../../shared/platform/secrets/secret-access.js';
import { createSecretBox } from '../../shared/platform/secrets/secret-box.js';
import { createLinkSecret } from '../../shared/portal/link-secret.js';
import { createRateLimiter } from '../../shared/platform/rate-limits/rate-limiter.js';
import { createDeps, type Deps } from '../../shared/platform/runtime.js';
import { createDownloadLinks } from '../../shared/platform/storage/download-links.js';
import { portalRoutes } from './routes.js';
import { originSecretOf } from '../../shared/platform/http/front-door.js';

/** What the portal uses: its share of the table, and the payment provider for cancel. */
export type PortalDeps = Deps<Config<'links'>> & PaymentDeps;

export function createPortalDeps(config: Config<'links'>): PortalDeps {
  return { ...createDeps(config, 'portal'), payments: createPaymentDeps(config, createSecretBox(config, SECRET_ACCESS.portal)) };
}

/** Every route of the portal, with this container's rate limiter, link secret and presigner. */
export function createPortalRoutes(deps: PortalDeps): Route[] {
  return portalRoutes(deps, {
    limits: createRateLimiter(deps),
    secret: createLinkSecret(deps.config),
    links: createDownloadLinks(deps.config, () => deps.clients.table.config.credentials()),
  });
}

/**
 * The portal API (`/v1/portal`, and `/dl`): called by the vendor's server with its secret key, never by a browser,
 * so no origin gets CORS headers (a credentialed policy with no allowed origin).
 */
export function createPortalHandler(deps: PortalDeps) {
  return httpApp(createPortalRoutes(deps), { cors: { kind: 'credentialed', origin: undefined }, originSecret: originSecretOf(deps.config), data: deps.data });
}
