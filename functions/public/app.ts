import { createUsageQueue } from '../../shared/insights/index.js';
import { httpApp, originSecretOf, type Route } from '../../shared/platform/http/index.js';
import { createActivityRecorder, createKeyring, createProductCatalog, createResponseSigner } from '../../shared/licensing/index.js';
import { createRateLimiter } from '../../shared/platform/rate-limits/index.js';
import { type Config, createDeps, type Deps } from '../../shared/platform/index.js';
import { createPaymentDeps, type PaymentDeps } from '../../shared/billing/index.js';
import { createSecretBox, SECRET_ACCESS } from '../../shared/platform/secrets/index.js';
import { licenseRoutes } from '../shared/license-routes.js';
import { analyticsRoutes } from './analytics-routes.js';
import { checkoutRoutes } from './checkout-routes.js';
import { trialRoutes } from './trial-routes.js';
import { signingRoutes } from './signing-routes.js';

/** What the public API uses: the table (license operations and checkout), and the payment provider for checkout. */
export type PublicDeps = Deps<Config<'links'>> & PaymentDeps;

export function createPublicDeps(config: Config<'links'>): PublicDeps {
  return { ...createDeps(config, 'public'), payments: createPaymentDeps(config, createSecretBox(config, SECRET_ACCESS.public)) };
}

/** Every route of the public API, with this container's product cache and bookkeeping. */
export function publicRoutes(deps: PublicDeps): Route[] {
  // One secret box for the container: the vendors' Stripe keys and the products' signing keys.
  const signer = createResponseSigner(createKeyring(deps.payments.secrets));
  // Usage events and installs seen go to the usage queue, whose writer stores and counts them in batches.
  const usage = createUsageQueue(deps.config);
  const context = { catalog: createProductCatalog(deps), activity: createActivityRecorder({ ...deps, usage }), limits: createRateLimiter(deps), signer, usage };
  return [
    ...licenseRoutes(deps, context, { prefix: '/public/v1', publicKey: true }),
    ...signingRoutes(deps, context),
    ...checkoutRoutes(deps, context),
    ...trialRoutes(deps, context),
    ...analyticsRoutes(deps, context),
  ];
}

/** The public API (`/public/v1`): the product's public key identifies it; open to any origin. */
export function createPublicHandler(deps: PublicDeps) {
  return httpApp(publicRoutes(deps), { cors: { kind: 'open' }, originSecret: originSecretOf(deps.config), data: deps.data });
}
