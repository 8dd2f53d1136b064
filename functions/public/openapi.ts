import { defineOperations } from '../../shared/platform/openapi/index.js';
import { licenseOperations } from '../shared/license-routes.openapi.js';
import { analyticsOperations } from './analytics-routes.openapi.js';
import { checkoutOperations } from './checkout-routes.openapi.js';
import { trialOperations } from './trial-routes.openapi.js';
import { signingOperations } from './signing-routes.openapi.js';

/** The OpenAPI operations of every public route (`publicRoutes`). */
export const publicOperations = defineOperations({
  ...licenseOperations({ prefix: '/public/v1', publicKey: true }),
  ...signingOperations,
  ...checkoutOperations,
  ...trialOperations,
  ...analyticsOperations,
});
