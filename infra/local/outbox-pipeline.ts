import { join } from 'node:path';
import type { Context } from 'aws-lambda';
import { deliveredToFanOut } from '../../functions/outbox-fanout/outbox-filter.js';
import { OUTBOX_STREAM_SETTINGS } from '../../functions/outbox-fanout/stream-settings.js';
import { USAGE_QUEUE_SETTINGS } from '../../shared/insights/analytics/usage-queue.js';
import { EXPORT_QUEUE_SETTINGS } from '../../shared/portability/exports/export-queue.js';
import { IMPORT_QUEUE_SETTINGS } from '../../shared/portability/imports/import-queue.js';
import { MAIL_QUEUE_SETTINGS } from '../../shared/messaging/mail/mail-queue.js';
import { DELIVERY_QUEUE_SETTINGS } from '../../shared/messaging/webhooks/delivery-queue.js';
import { WORKER_ENTRIES } from '../worker-entries.js';
import { importFunctionEntry } from './function-entry.js';
import { lambdaContext } from './lambda-context.js';
import { startLocalQueue, startSqsEndpoint, type QueueConsumer } from './queue.js';
import { startStreamPoller, type StreamHandler } from './stream-poller.js';

/** A deployed handler: the event and the invocation's context. */
type Invoked<Consumer extends (event: never) => unknown> = { handler: (event: Parameters<Consumer>[0], context: Context) => ReturnType<Consumer> };

/** Batches handled at once by each local queue consumer, as Lambda would run several. */
const LOCAL_CONSUMER_CONCURRENCY = 5;
/**
 * The usage queue's batching window here: shorter than AWS's (USAGE_QUEUE_SETTINGS), so that tests and `npm start`
 * see events within a second, long enough that batches fill under load as they do in AWS.
 */
const LOCAL_USAGE_BATCHING_WINDOW_MS = 1000;

/**
 * What the outbox drives on this machine: the table's stream feeds the fan-out function (retrying a failed record
 * and giving it up as the AWS event source mapping does), which fills the
 * webhook delivery queue (drained by the dispatcher) and the mail queue (drained by the mail sender); their
 * deployed entry files, run as the stream and SQS event sources run them in AWS. Beside them, on the same
 * endpoint, the usage queue that the edge and public functions fill, drained by the usage event writer in batches
 * gathered for up to a second. With a data directory, the queues'
 * messages and the stream position survive a restart.
 */
export async function startOutboxPipeline(options: { dataDir?: string; dynamoEndpoint: string; tableName: string; instance: number }) {
  const stateFile = (name: string) => options.dataDir && join(options.dataDir, `${name}.json`);
  const sqsEndpoint = await startSqsEndpoint();
  const deliveries = await startLocalQueue({
    name: 'webhook-deliveries',
    deadLetterName: 'webhook-deliveries-dlq',
    visibilityTimeoutSeconds: DELIVERY_QUEUE_SETTINGS.visibilityTimeoutSeconds,
    maxReceiveCount: DELIVERY_QUEUE_SETTINGS.maxReceiveCount,
    batchSize: DELIVERY_QUEUE_SETTINGS.batchSize,
    concurrency: LOCAL_CONSUMER_CONCURRENCY,
    stateFile: stateFile('webhook-queue'),
    sqsEndpoint,
  });
  const mail = await startLocalQueue({
    name: 'mail',
    deadLetterName: 'mail-dlq',
    visibilityTimeoutSeconds: MAIL_QUEUE_SETTINGS.visibilityTimeoutSeconds,
    maxReceiveCount: MAIL_QUEUE_SETTINGS.maxReceiveCount,
    batchSize: MAIL_QUEUE_SETTINGS.batchSize,
    concurrency: LOCAL_CONSUMER_CONCURRENCY,
    stateFile: stateFile('mail-queue'),
    sqsEndpoint,
  });
  const usage = await startLocalQueue({
    name: 'usage-events',
    deadLetterName: 'usage-events-dlq',
    visibilityTimeoutSeconds: USAGE_QUEUE_SETTINGS.visibilityTimeoutSeconds,
    maxReceiveCount: USAGE_QUEUE_SETTINGS.maxReceiveCount,
    batchSize: USAGE_QUEUE_SETTINGS.batchSize,
    batchingWindowMs: LOCAL_USAGE_BATCHING_WINDOW_MS,
    concurrency: LOCAL_CONSUMER_CONCURRENCY,
    stateFile: stateFile('usage-queue'),
    sqsEndpoint,
  });
  // Account exports, one job a batch (a local invocation stops after 20 s of its 30 and queues the rest).
  const exports = await startLocalQueue({
    name: 'exports',
    deadLetterName: 'exports-dlq',
    visibilityTimeoutSeconds: EXPORT_QUEUE_SETTINGS.visibilityTimeoutSeconds,
    maxReceiveCount: EXPORT_QUEUE_SETTINGS.maxReceiveCount,
    batchSize: EXPORT_QUEUE_SETTINGS.batchSize,
    // As the worker's reserved concurrency in AWS (DECISIONS §20).
    concurrency: EXPORT_QUEUE_SETTINGS.maxConcurrency,
    stateFile: stateFile('export-queue'),
    sqsEndpoint,
  });
  // Imports, one a batch (the worker hands the rest over before its timeout, as in AWS), two at a time (DECISIONS §20).
  const imports = await startLocalQueue({
    name: 'imports',
    deadLetterName: 'imports-dlq',
    visibilityTimeoutSeconds: IMPORT_QUEUE_SETTINGS.visibilityTimeoutSeconds,
    maxReceiveCount: IMPORT_QUEUE_SETTINGS.maxReceiveCount,
    batchSize: IMPORT_QUEUE_SETTINGS.batchSize,
    concurrency: IMPORT_QUEUE_SETTINGS.maxConcurrency,
    stateFile: stateFile('import-queue'),
    sqsEndpoint,
  });
  let poller: { stop: () => Promise<void> } | undefined;
  return {
    /** What the functions need to reach the queues (one local endpoint serves them all). */
    env: {
      QUEUE_URL: deliveries.queueUrl,
      DEAD_LETTER_QUEUE_URL: deliveries.deadLetterQueueUrl,
      MAIL_QUEUE_URL: mail.queueUrl,
      USAGE_QUEUE_URL: usage.queueUrl,
      EXPORT_QUEUE_URL: exports.queueUrl,
      IMPORT_QUEUE_URL: imports.queueUrl,
      SQS_ENDPOINT: sqsEndpoint.url,
      // As the stack sets it (infra/constructs/health-check.ts); locally the stream's give-ups go to the log instead.
      HEALTH_CHECK_DEAD_LETTER_QUEUES: JSON.stringify(
        Object.fromEntries(
          Object.entries({ webhook: deliveries, mail, 'usage-event': usage, export: exports, import: imports }).map(([name, queue]) => [
            `${name}-dead-letters`,
            { url: queue.deadLetterQueueUrl, about: 'See the local stack’s log.' },
          ]),
        ),
      ),
    },
    /** Starts the consumers; call once `env` is in the process environment, as the functions read it. */
    run: async () => {
      const dispatcher = await importFunctionEntry<Invoked<QueueConsumer>>(WORKER_ENTRIES.webhookDispatcher, options.instance);
      const sender = await importFunctionEntry<Invoked<QueueConsumer>>(WORKER_ENTRIES.mailSender, options.instance);
      const fanOut = await importFunctionEntry<Invoked<StreamHandler>>(WORKER_ENTRIES.outboxFanOut, options.instance);
      const writer = await importFunctionEntry<Invoked<QueueConsumer>>(WORKER_ENTRIES.usageEventWriter, options.instance);
      const exporter = await importFunctionEntry<Invoked<QueueConsumer>>(WORKER_ENTRIES.exportWorker, options.instance);
      const importer = await importFunctionEntry<Invoked<QueueConsumer>>(WORKER_ENTRIES.importWorker, options.instance);
      deliveries.consume((event) => dispatcher.handler(event, lambdaContext('webhookDispatcher')));
      exports.consume((event) => exporter.handler(event, lambdaContext('exportWorker')));
      mail.consume((event) => sender.handler(event, lambdaContext('mailSender')));
      usage.consume((event) => writer.handler(event, lambdaContext('usageEventWriter')));
      imports.consume((event) => importer.handler(event, lambdaContext('importWorker', IMPORT_QUEUE_SETTINGS.workerTimeoutSeconds)));
      poller = await startStreamPoller({
        endpoint: options.dynamoEndpoint,
        tableName: options.tableName,
        filter: deliveredToFanOut,
        handler: (event) => fanOut.handler(event, lambdaContext('outboxFanOut')),
        checkpointFile: stateFile('webhook-stream-position'),
        ...OUTBOX_STREAM_SETTINGS,
        // The stream's dead-letter queue in AWS; here the log. The items stay pending, and the outbox sweep forwards them.
        onDiscard: (batch) => console.error('outbox stream: records given up; the outbox sweep forwards them', batch),
      });
    },
    /** For `GET /_local/webhook-queue`, `/_local/mail-queue` and `/_local/usage-queue`: message counts and the dead-letter queue's contents. */
    webhookQueueState: () => deliveries.state(),
    mailQueueState: () => mail.state(),
    usageQueueState: () => usage.state(),
    importQueueState: () => imports.state(),
    /** The stream first, so nothing new is queued while the queues drain their running batches. */
    stop: async () => {
      await poller?.stop();
      await Promise.all([deliveries.stop(), mail.stop(), usage.stop(), exports.stop(), imports.stop()]);
      await sqsEndpoint.stop();
    },
  };
}
