import * as z from 'zod/mini';
import { defineOperations, named } from '../../shared/platform/openapi/index.js';
import { accountSettingsOperations } from './routes/account-settings.openapi.js';
import { activationOperations } from './routes/activations.openapi.js';
import { analyticsOperations } from './routes/analytics.openapi.js';
import { apiKeyOperations } from './routes/api-keys.openapi.js';
import { authOperations } from './routes/auth.openapi.js';
import { customerOperations } from './routes/customers.openapi.js';
import { exportOperations } from './routes/exports.openapi.js';
import { licenseOperations } from './routes/licenses.openapi.js';
import { oauthOperations } from './routes/oauth.openapi.js';
import { paymentProviderOperations } from './routes/payment-provider.openapi.js';
import { portalSettingsOperations } from './routes/portal-settings.openapi.js';
import { planOperations } from './routes/plans.openapi.js';
import { productOperations } from './routes/products.openapi.js';
import { releaseOperations } from './routes/releases.openapi.js';
import { webhookOperations } from './routes/webhooks.openapi.js';
import { importOperations } from './routes/imports.openapi.js';
import { teamOperations } from './routes/team.openapi.js';
import { auditLogOperations } from './routes/audit-log.openapi.js';
import { subscriptionOperations } from './routes/subscriptions.openapi.js';
import { couponOperations } from './routes/coupons.openapi.js';

/** The OpenAPI operations of every management route (`managementRoutes`), one file per route file. */
export const managementOperations = defineOperations({
  ...authOperations,
  ...oauthOperations,
  ...apiKeyOperations,
  ...activationOperations,
  ...productOperations,
  ...licenseOperations,
  ...customerOperations,
  ...webhookOperations,
  ...planOperations,
  ...paymentProviderOperations,
  ...portalSettingsOperations,
  ...releaseOperations,
  ...analyticsOperations,
  ...exportOperations,
  ...importOperations,
  ...teamOperations,
  ...auditLogOperations,
  ...subscriptionOperations,
  ...couponOperations,
  ...accountSettingsOperations,
  'GET /health': {
    summary: 'Health check',
    description: 'Answers once the stack is ready to serve.',
    security: [[]],
    responses: { 200: { description: 'Ready', body: named('Health', z.object({ status: z.literal('ok') })), examples: { ok: { status: 'ok' } } } },
  },
});
