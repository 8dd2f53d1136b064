import { createLoadedDeps, loadConfig } from '../../shared/platform/index.js';
import { expireLeases, type LeaseExpiryResult } from '../../shared/licensing/index.js';
import { logger } from '../../shared/platform/observability/index.js';
import { workerApp } from '../../shared/platform/workers/index.js';

const deps = await createLoadedDeps(loadConfig(), 'leaseExpiry');

/**
 * Sends `lease.expired` for leases that ended without a release, run every minute (an EventBridge rule in AWS, the
 * local scheduler here). Runs may overlap or repeat safely: each lease goes under a condition.
 */
export const handler = workerApp(async (): Promise<LeaseExpiryResult> => {
  const result = await expireLeases(deps);
  if (result.expired || result.skipped) logger.info('Lease expiry', result);
  return result;
});
