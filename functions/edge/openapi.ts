import { defineOperations } from '../../shared/platform/openapi/index.js';
import { licenseOperations } from '../shared/license-routes.openapi.js';
import { feedOperations } from './feed-routes.openapi.js';
import { composerOperations } from './composer-routes.openapi.js';
import { updateOperations } from './update-routes.openapi.js';

/** The OpenAPI operations of every edge route (`edgeRoutes`). */
export const edgeOperations = defineOperations({
  ...licenseOperations({ prefix: '/v1', publicKey: false }),
  ...updateOperations,
  ...feedOperations,
  ...composerOperations,
});
