import { createUsageQueue } from '../../shared/insights/analytics/usage-queue.js';
import { httpApp } from '../../shared/platform/http/app.js';
import type { Route } from '../../shared/platform/http/route.js';
import { createActivityRecorder } from '../../shared/licensing/operations/activity.js';
import { createProductCatalog } from '../../shared/licensing/operations/product-catalog.js';
import { createRateLimiter } from '../../shared/platform/rate-limits/rate-limiter.js';
import type { Config } from '../../shared/platform/config.js';
import { createPaymentDeps, type PaymentDeps } from '../../shared/billing/payments/payment-deps.js';
import { SECRET_ACCESS } from '../../shared/platform/secrets/secret-access.js';
import { createSecretBox } from '../../shared/platform/secrets/secret-box.js';
import { createDeps, type Deps } from '../../shared/platform/runtime.js';
import { createKeyring, createResponseSigner } from '../../shared/licensing/signing/response-signer.js';
import { licenseRoutes } from '../shared/license-routes.js';
import { analyticsRoutes } from './analytics-routes.js';
import { checkoutRoutes } from './checkout-routes.js';
import { trialRoutes } from './trial-routes.js';
import { signingRoutes } from './signing-routes.js';
import { originSecretOf } from '../../shared/platform/http/front-door.js';

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
