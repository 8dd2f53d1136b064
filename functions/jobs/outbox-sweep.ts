import { createLoadedDeps, loadConfig } from '../../shared/platform/index.js';
import { createDeliveryQueue, createMailQueue, sweepOutbox } from '../../shared/messaging/index.js';
import { logger } from '../../shared/platform/observability/index.js';
import { workerApp } from '../../shared/platform/workers/index.js';

const config = loadConfig();
const deps = { ...(await createLoadedDeps(config, 'outboxSweep')), queues: { deliveries: createDeliveryQueue(config), mail: createMailQueue(config) } };

/**
 * The outbox sweep, run on a schedule: every 5 minutes by an EventBridge rule in AWS, every minute by the local
 * scheduler. It forwards the outbox items the table's stream gave up on. A run that could not forward an item fails
 * once it has done the rest, so the function's error alarm says so; the item is tried again later.
 */
export const handler = workerApp(async (): Promise<{ forwarded: number }> => {
  const { forwarded, failures } = await sweepOutbox(deps);
  // Quiet when there was nothing to do; anything forwarded here is something the stream lost.
  if (forwarded) logger.warn('Outbox sweep forwarded items the stream left behind', { forwarded });
  for (const failure of failures) logger.error('Outbox sweep could not forward an item', failure);
  if (failures.length) throw new Error(`Outbox sweep: ${failures.length} outbox items not forwarded; tried again later`);
  return { forwarded };
});
