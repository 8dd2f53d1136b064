import { createOAuthProviders, type OAuthProviders, type TakeoverHook } from '../../shared/identity/index.js';
import { httpApp, ok, originSecretOf, type Route } from '../../shared/platform/http/index.js';
import { createPaymentDeps, disconnectProvider, type PaymentDeps } from '../../shared/billing/index.js';
import { createRateLimiter } from '../../shared/platform/rate-limits/index.js';
import { createExportQueue, createImportQueue, type ExportQueue, type ImportQueue } from '../../shared/portability/index.js';
import { type Config, createDeps, type Deps } from '../../shared/platform/index.js';
import { createSecretBox, SECRET_ACCESS, type SecretBox } from '../../shared/platform/secrets/index.js';
import { createStorageClient } from '../../shared/platform/s3/index.js';
import type { StorageDeps } from '../../shared/platform/storage/index.js';
import { routeBuilders } from './route.js';
import { accountSettingsRoutes } from './routes/account-settings.js';
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
import { portalSettingsRoutes } from './routes/portal-settings.js';
import { planRoutes } from './routes/plans.js';
import { releaseRoutes } from './routes/releases.js';
import { importRoutes } from './routes/imports.js';
import { teamRoutes } from './routes/team.js';
import { auditLogRoutes } from './routes/audit-log.js';
import { subscriptionRoutes } from './routes/subscriptions.js';
import { couponRoutes } from './routes/coupons.js';

/**
 * What the management API uses: the table, the release bucket's client, the payment provider's, the OAuth providers,
 * the secret box that seals payment-provider secrets and products' signing keys, the export worker's queue, and what an
 * account's takeover ends beyond identity (DECISIONS §20: its payment provider's connection, which billing holds).
 */
export type ManagementDeps = Deps<ManagementConfig> &
  StorageDeps &
  PaymentDeps & { oauth: OAuthProviders; secrets: SecretBox; exportQueue: ExportQueue; imports: ImportQueue; onTakeover: TakeoverHook };
/** Links (callbacks, webhook URLs), the dashboard's origin, the OAuth clients and who may register, beside the core. */
export type ManagementConfig = Config<'links' | 'dashboard' | 'oauth' | 'registration'>;

export function createManagementDeps(config: ManagementConfig): ManagementDeps {
  const deps = createDeps(config, 'all');
  const secrets = createSecretBox(config, SECRET_ACCESS.management);
  return {
    ...deps,
    onTakeover: (tenantId) => disconnectProvider(deps, tenantId),
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
    ...licenseRoutes(deps, limits, builders),
    ...customerRoutes(deps, builders),
    ...webhookRoutes(deps, builders),
    ...planRoutes(deps, builders),
    ...paymentProviderRoutes(deps, builders),
    ...releaseRoutes(deps, builders),
    ...analyticsRoutes(deps, builders),
    ...exportRoutes(deps, builders),
    ...importRoutes(deps, builders),
    ...teamRoutes(deps, limits, builders),
    ...auditLogRoutes(deps, builders),
    ...subscriptionRoutes(deps, builders),
    ...couponRoutes(deps, builders),
    ...accountSettingsRoutes(deps, builders),
    ...portalSettingsRoutes(deps, builders),
    { method: 'GET', path: '/health', handler: async () => ok({ status: 'ok' }) },
  ];
}

/** The management API (`/api`): session cookie or secret API key. */
export function createManagementHandler(deps: ManagementDeps) {
  const dashboardOrigin = deps.config.dashboardUrl ? new URL(deps.config.dashboardUrl).origin : undefined;
  return httpApp(managementRoutes(deps), { cors: { kind: 'credentialed', origin: dashboardOrigin }, originSecret: originSecretOf(deps.config), data: deps.data });
}
