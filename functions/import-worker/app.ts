import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { IMPORT_QUEUE_SETTINGS, type ImportDeps, importMessageSchema, recordRunError, runImport } from '../../shared/portability/index.js';
import { logger } from '../../shared/platform/observability/index.js';
import { workerApp } from '../../shared/platform/workers/index.js';

/**
 * The import worker (SQS event source, one message a batch, with ReportBatchItemFailures): runs the import the
 * message names from its cursor (shared/portability/imports/run-import.ts), handing the rest to a new message a minute before its
 * timeout. A run that fails is reported, its reason kept on the import (the reason it ends with if it stalls), and the
 * message comes back after the visibility timeout to go on from the cursor; a message naming no import is dropped with
 * an error log.
 */
export function createImportWorkerHandler(deps: ImportDeps) {
  return workerApp(async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
    const failed: string[] = [];
    for (const record of event.Records) {
      let importId: string | undefined;
      try {
        importId = importMessageSchema.parse(JSON.parse(record.body)).importId;
      } catch {
        logger.error('Import message names no import', { messageId: record.messageId });
        continue;
      }
      try {
        await runImport(deps, importId, () => context.getRemainingTimeInMillis(), IMPORT_QUEUE_SETTINGS.handOverSeconds * 1000);
      } catch (error) {
        logger.error('Import stopped; the queue gives it back to go on from its cursor', { importId, error });
        await recordRunError(deps, importId, error);
        failed.push(record.messageId);
      }
    }
    return { batchItemFailures: failed.map((itemIdentifier) => ({ itemIdentifier })) };
  });
}
