import { queueSender } from '../../platform/aws/index.js';
import type { CoreConfig } from '../../platform/index.js';
import { PORTABILITY_WORKER_CONCURRENCY } from '../worker-concurrency.js';

/** A message of the export queue: carry this job forward (start it, or continue where the last invocation stopped). */
export type ExportMessage = { exportId: string };

export type ExportQueue = { send(message: ExportMessage): Promise<void> };

export function createExportQueue(config: CoreConfig): ExportQueue {
  return { send: queueSender<ExportMessage>(config, config.exports.queueUrl, 'EXPORT_QUEUE_URL') };
}

/**
 * The export queue and its worker, in AWS and locally alike. One job per invocation, two workers at most at a time
 * across the deployment (DECISIONS §20); an invocation stops about a
 * minute before its timeout and queues its job again to be continued. A message whose invocation failed comes back
 * after the visibility timeout (longer than the worker's timeout); after 5 receives it goes to the dead-letter queue
 * and its job is marked failed.
 */
export const EXPORT_QUEUE_SETTINGS = {
  batchSize: 1,
  workerTimeoutSeconds: 900,
  /** Left to an invocation when it stops to hand over: enough to upload a part and save its place. */
  handOverSeconds: 60,
  visibilityTimeoutSeconds: 960,
  maxReceiveCount: 5,
  maxConcurrency: PORTABILITY_WORKER_CONCURRENCY,
};
