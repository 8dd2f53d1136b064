import { createLoadedDeps, FUNCTION_CONFIG_SECTIONS, loadConfig } from '../../shared/platform/index.js';
import { type ReminderSweepResult, sweepExpiredLicenses, sweepRenewalReminders, type SweepResult } from '../../shared/licensing/index.js';
import { logger } from '../../shared/platform/observability/index.js';
import { workerApp } from '../../shared/platform/workers/index.js';

const deps = await createLoadedDeps(loadConfig(process.env, FUNCTION_CONFIG_SECTIONS.expirySweep), 'expirySweep');

/**
 * The expiry sweep, run on a schedule: every 5 minutes by an EventBridge rule in AWS, every minute
 * by the local scheduler. It sends the renewal reminders that are due, then expires the licenses that are.
 * Runs may overlap or repeat safely: each license and each reminder changes under a condition.
 */
export const handler = workerApp(async (): Promise<SweepResult & { reminders: ReminderSweepResult }> => {
  const reminders = await sweepRenewalReminders(deps);
  const result = await sweepExpiredLicenses(deps);
  // Quiet when there was nothing to do: the sweep runs every few minutes.
  if (result.expired || result.cleared || result.retried || reminders.reminded || reminders.cleared || reminders.retried) logger.info('Expiry sweep', { ...result, reminders });
  return { ...result, reminders };
});
