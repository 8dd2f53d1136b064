import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { type CoreConfig, createDeps } from '../../shared/platform/index.js';
import { createExportQueue, EXPORT_QUEUE_SETTINGS, type ExportMessage, type ExportQueue, type ExportRunDeps, failExport, runExport } from '../../shared/portability/index.js';
import { logger } from '../../shared/platform/observability/index.js';
import { createStorageClient } from '../../shared/platform/s3/index.js';
import { workerApp } from '../../shared/platform/workers/index.js';

export type ExportWorkerDeps = ExportRunDeps & { queue: ExportQueue };

export function createExportWorkerDeps(config: CoreConfig): ExportWorkerDeps {
  const deps = createDeps(config, 'exportWorker');
  return { ...deps, s3: createStorageClient(config), queue: createExportQueue(config) };
}

/**
 * The export worker (SQS event source, one message a batch, with ReportBatchItemFailures): carries the message's
 * export job forward until it is done or the invocation's time is nearly up; then it queues the job again, and the
 * next invocation continues from the saved place. A failure returns the message to the queue (it resumes from the
 * last saved place); the last allowed receive that fails marks the job failed.
 */
export function createExportWorkerHandler(deps: ExportWorkerDeps) {
  return workerApp(async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
    const failures: string[] = [];
    // Keep a third of a short invocation (locally, 30 s) or a minute of a long one for the hand-over.
    const handOverMs = Math.min(EXPORT_QUEUE_SETTINGS.handOverSeconds * 1000, context.getRemainingTimeInMillis() / 3);
    for (const record of event.Records) {
      const { exportId } = JSON.parse(record.body) as ExportMessage;
      try {
        const outcome = await runExport(deps, exportId, {
          shouldStop: () => context.getRemainingTimeInMillis() < handOverMs,
          leaseMs: EXPORT_QUEUE_SETTINGS.visibilityTimeoutSeconds * 1000,
        });
        if (outcome === 'continue') await deps.queue.send({ exportId });
      } catch (error) {
        const receives = Number(record.attributes.ApproximateReceiveCount);
        logger.error('export: the run failed', { exportId, receives, error });
        if (receives >= EXPORT_QUEUE_SETTINGS.maxReceiveCount) await failExport(deps, exportId, 'The export failed; start a new one');
        failures.push(record.messageId);
      }
    }
    return { batchItemFailures: failures.map((itemIdentifier) => ({ itemIdentifier })) };
  });
}
