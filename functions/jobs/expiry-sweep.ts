import { loadConfig } from '../../shared/config.js';
import { sweepExpiredLicenses, type SweepResult } from '../../shared/licenses/expiry-sweep.js';
import { logger } from '../../shared/observability/logger.js';
import { createDeps } from '../../shared/runtime.js';
import { workerApp } from '../../shared/workers/app.js';

const deps = createDeps(loadConfig(), 'expirySweep');

/**
 * The expiry sweep, run on a schedule: every 5 minutes by an EventBridge rule in AWS, every minute
 * by the local scheduler. Runs may overlap or repeat safely: each license changes under a condition.
 */
export const handler = workerApp(async (): Promise<SweepResult> => {
  const result = await sweepExpiredLicenses(deps);
  // Quiet when there was nothing to do: the sweep runs every few minutes.
  if (result.expired || result.cleared || result.retried) logger.info('Expiry sweep', result);
  return result;
});
