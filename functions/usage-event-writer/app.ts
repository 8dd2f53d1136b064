import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { type UsageWriterDeps, writeUsage } from '../../shared/insights/index.js';
import { workerApp } from '../../shared/platform/workers/index.js';

/**
 * The usage event writer (SQS event source, up to 100 messages a batch, with ReportBatchItemFailures): stores the
 * batch's events and bumps its daily counts (shared/insights/analytics/usage-writer.ts). Messages it could not write come
 * back after the queue's visibility timeout; an error before any write (a license read the table refused) fails
 * the whole batch, which comes back the same way.
 */
export function createUsageEventWriterHandler(deps: UsageWriterDeps) {
  return workerApp(async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const received = event.Records.map((record) => ({
      messageId: record.messageId,
      body: record.body,
      receiveCount: Number(record.attributes.ApproximateReceiveCount),
    }));
    const failed = await writeUsage(deps, received);
    return { batchItemFailures: failed.map((itemIdentifier) => ({ itemIdentifier })) };
  });
}
