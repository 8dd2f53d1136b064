/** The public surface of shared/platform/observability: what the contexts and the functions use of it. */
export { logger } from './logger.js';
export { metrics } from './metrics.js';
export type { DeliveryOutcome, LicenseOperation } from './metrics.js';
