import { queueSender } from '../../platform/aws/index.js';
import type { CoreConfig } from '../../platform/index.js';
import type { UsageMessage } from './usage-message.js';

/** The usage queue (SQS in AWS, the local stack's queue locally): one message per accepted event or install seen. */
export type UsageQueue = { send(message: UsageMessage): Promise<void> };

export function createUsageQueue(config: CoreConfig): UsageQueue {
  return { send: queueSender<UsageMessage>(config, config.analytics.queueUrl, 'USAGE_QUEUE_URL') };
}

/**
 * How the usage queue feeds the writer, in AWS and locally alike. Up to 100 messages a batch, gathered for up to
 * 5 seconds: each batch's events go out 25 to a BatchWriteItem, and its counts once per (product, day, name),
 * so the busier the queue, the fewer writes per event. A batch that keeps failing (the table refusing writes
 * for about 15 minutes) moves to the dead-letter queue, which raises an alarm and can be redriven.
 */
export const USAGE_QUEUE_SETTINGS = {
  batchSize: 100,
  maxBatchingWindowSeconds: 5,
  writerTimeoutSeconds: 30,
  /** Six times the writer's timeout, as AWS advises for an SQS event source with a batching window. */
  visibilityTimeoutSeconds: 180,
  maxReceiveCount: 5,
  /** Concurrent writers at most: larger batches are cheaper per event, and the edge must keep its concurrency. */
  maxConcurrency: 2,
};
