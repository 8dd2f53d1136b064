import { join } from 'node:path';
import type { Context } from 'aws-lambda';
import { matchesFilter, OUTBOX_INSERT_FILTER } from '../../functions/webhook-fanout/outbox-filter.js';
import { DELIVERY_QUEUE_SETTINGS } from '../../shared/webhooks/delivery-queue.js';
import { WORKER_ENTRIES } from '../worker-entries.js';
import { importFunctionEntry } from './function-entry.js';
import { lambdaContext } from './lambda-context.js';
import { startLocalQueue, type QueueConsumer } from './queue.js';
import { startStreamPoller, type StreamHandler } from './stream-poller.js';

/** A deployed handler: the event and the invocation's context. */
type Invoked<Consumer extends (event: never) => unknown> = { handler: (event: Parameters<Consumer>[0], context: Context) => ReturnType<Consumer> };

/** Batches handled at once by the local dispatcher, as Lambda would run several. */
const LOCAL_DISPATCHER_CONCURRENCY = 5;

/**
 * The webhook delivery pipeline on this machine: the table's stream drives the fan-out function and the
 * in-process queue drives the dispatcher (their deployed entry files), as the stream and SQS event sources
 * do in AWS. With a data directory, the queue's messages and the stream position survive a restart.
 */
export async function startWebhookPipeline(options: { dataDir?: string; dynamoEndpoint: string; tableName: string; instance: number }) {
  const queue = await startLocalQueue({
    name: 'webhook-deliveries',
    deadLetterName: 'webhook-deliveries-dlq',
    visibilityTimeoutSeconds: DELIVERY_QUEUE_SETTINGS.visibilityTimeoutSeconds,
    maxReceiveCount: DELIVERY_QUEUE_SETTINGS.maxReceiveCount,
    batchSize: DELIVERY_QUEUE_SETTINGS.batchSize,
    concurrency: LOCAL_DISPATCHER_CONCURRENCY,
    stateFile: options.dataDir && join(options.dataDir, 'webhook-queue.json'),
  });
  let poller: { stop: () => Promise<void> } | undefined;
  return {
    /** What the functions need to reach the queue. */
    env: { QUEUE_URL: queue.queueUrl, DEAD_LETTER_QUEUE_URL: queue.deadLetterQueueUrl, SQS_ENDPOINT: queue.endpoint },
    /** Starts both consumers; call once `env` is in the process environment, as the functions read it. */
    run: async () => {
      const dispatcher = await importFunctionEntry<Invoked<QueueConsumer>>(WORKER_ENTRIES.webhookDispatcher, options.instance);
      const fanOut = await importFunctionEntry<Invoked<StreamHandler>>(WORKER_ENTRIES.webhookFanOut, options.instance);
      queue.consume((event) => dispatcher.handler(event, lambdaContext('webhookDispatcher')));
      poller = await startStreamPoller({
        endpoint: options.dynamoEndpoint,
        tableName: options.tableName,
        filter: (record) => matchesFilter(OUTBOX_INSERT_FILTER, record),
        handler: (event) => fanOut.handler(event, lambdaContext('webhookFanOut')),
        checkpointFile: options.dataDir && join(options.dataDir, 'webhook-stream-position.json'),
      });
    },
    /** For `GET /_local/webhook-queue`: message counts and the dead-letter queue's contents. */
    queueState: () => queue.state(),
    /** The stream first, so nothing new is queued while the queue drains its running batches. */
    stop: async () => {
      await poller?.stop();
      await queue.stop();
    },
  };
}
