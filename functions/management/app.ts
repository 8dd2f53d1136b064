import { createOAuthProviders, type OAuthProviders } from '../../shared/identity/accounts/oauth-providers.js';
import { httpApp } from '../../shared/platform/http/app.js';
import { ok } from '../../shared/platform/http/responses.js';
import type { Route } from '../../shared/platform/http/route.js';
import { createPaymentDeps, type PaymentDeps } from '../../shared/billing/payments/payment-deps.js';
import { createRateLimiter } from '../../shared/platform/rate-limits/rate-limiter.js';
import { createImportQueue, type ImportQueue } from '../../shared/portability/imports/import-queue.js';
import type { Config } from '../../shared/platform/config.js';
import { createExportQueue, type ExportQueue } from '../../shared/portability/exports/export-queue.js';
import { createDeps, type Deps } from '../../shared/platform/runtime.js';
import { SECRET_ACCESS } from '../../shared/platform/secrets/secret-access.js';
import { createSecretBox, type SecretBox } from '../../shared/platform/secrets/secret-box.js';
import { createStorageClient } from '../../shared/platform/storage/storage-client.js';
import type { StorageDeps } from '../../shared/platform/storage/release-files.js';
import { routeBuilders } from './route.js';
import { activationRoutes } from './routes/activations.js';
import { analyticsRoutes } from './routes/analytics.js';
import { apiKeyRoutes } from './routes/api-keys.js';
import { authRoutes } from './routes/auth.js';
import { customerRoutes } from './routes/customers.js';
import { exportRoutes } from './routes/exports.js';
import { licenseRoutes } from './routes/licenses.js';
import { oauthRoutes } from './routes/oauth.js';
import { productRoutes } from './routes/products.js';
import { webhookRoutes } from './routes/webhooks.js';
import { paymentProviderRoutes } from './routes/payment-provider.js';
import { planRoutes } from './routes/plans.js';
import { releaseRoutes } from './routes/releases.js';
import { importRoutes } from './routes/imports.js';
import { teamRoutes } from './routes/team.js';
import { auditLogRoutes } from './routes/audit-log.js';
import { subscriptionRoutes } from './routes/subscriptions.js';
import { couponRoutes } from './routes/coupons.js';
import { originSecretOf } from '../../shared/platform/http/front-door.js';

/**
 * What the management API uses: the table, the release bucket's client, the payment provider's, the OAuth providers,
 * the secret box that seals payment-provider secrets and products' signing keys, and the export worker's queue.
 */
export type ManagementDeps = Deps<ManagementConfig> & StorageDeps & PaymentDeps & { oauth: OAuthProviders; secrets: SecretBox; exportQueue: ExportQueue; imports: ImportQueue };
/** Links (callbacks, webhook URLs), the dashboard's origin and the OAuth clients, beside the core. */
export type ManagementConfig = Config<'links' | 'dashboard' | 'oauth'>;

export function createManagementDeps(config: ManagementConfig): ManagementDeps {
  const deps = createDeps(config, 'all');
  const secrets = createSecretBox(config, SECRET_ACCESS.management);
  return {
    ...deps,
    clients: { ...deps.clients, s3: createStorageClient(config) },
    payments: createPaymentDeps(config, secrets),
    oauth: createOAuthProviders(config),
    secrets,
    exportQueue: createExportQueue(config),
    imports: createImportQueue(config),
  };
}

/** Every route of the management API. */
export function managementRoutes(deps: ManagementDeps): Route[] {
  const builders = routeBuilders(deps);
  const limits = createRateLimiter(deps);
  return [
    ...authRoutes(deps, limits, builders),
    ...oauthRoutes(deps, limits, builders),
    ...apiKeyRoutes(deps, builders),
    ...activationRoutes(deps, builders),
    ...productRoutes(deps, builders),
    ...licenseRoutes(deps, builders),
    ...customerRoutes(deps, builders),
    ...webhookRoutes(deps, builders),
    ...planRoutes(deps, builders),
    ...paymentProviderRoutes(deps, builders),
    ...releaseRoutes(deps, builders),
    ...analyticsRoutes(deps, builders),
    ...exportRoutes(deps, builders),
    ...importRoutes(deps, builders),
    ...teamRoutes(deps, builders),
    ...auditLogRoutes(deps, builders),
    ...subscriptionRoutes(deps, builders),
    ...couponRoutes(deps, builders),
    { method: 'GET', path: '/health', handler: async () => ok({ status: 'ok' }) },
  ];
}

/** The management API (`/api`): session cookie or secret API key. */
export function createManagementHandler(deps: ManagementDeps) {
  const dashboardOrigin = deps.config.dashboardUrl ? new URL(deps.config.dashboardUrl).origin : undefined;
  return httpApp(managementRoutes(deps), { cors: { kind: 'credentialed', origin: dashboardOrigin }, originSecret: originSecretOf(deps.config), data: deps.data });
}
