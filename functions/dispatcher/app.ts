import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { logger } from '../../shared/platform/observability/index.js';
import type { Deps } from '../../shared/platform/index.js';
import type { SecretBox } from '../../shared/platform/secrets/index.js';
import { attemptDelivery, type DeliveryMessage, type DeliveryQueue } from '../../shared/messaging/index.js';
import { workerApp } from '../../shared/platform/workers/index.js';

function deliveryIdOf(record: SQSRecord): string | undefined {
  try {
    const message = JSON.parse(record.body) as Partial<DeliveryMessage>;
    return typeof message.deliveryId === 'string' ? message.deliveryId : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The webhook dispatcher (SQS event source with ReportBatchItemFailures). A message to retry is reported
 * as failed after its visibility is set to the retry delay, so SQS itself brings it back when it is due;
 * a message that errored is reported failed as it is and returns after the queue's visibility timeout.
 */
/** `secrets`: the dispatcher's secret box, which opens webhooks' signing secrets. */
export function createDispatcherHandler(deps: Deps & { secrets: SecretBox }, queue: DeliveryQueue) {
  return workerApp(async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const failed: string[] = [];
    await Promise.all(
      event.Records.map(async (record) => {
        try {
          const deliveryId = deliveryIdOf(record);
          if (!deliveryId) {
            logger.error('Unreadable delivery message', { messageId: record.messageId });
            await queue.deadLetter(record.body);
            return;
          }
          const outcome = await attemptDelivery(deps, deliveryId);
          if (outcome.kind === 'retry') {
            await queue.retryAfter(record.receiptHandle, outcome.afterSeconds);
            failed.push(record.messageId);
          } else if (outcome.kind === 'dead') {
            await queue.deadLetter(record.body);
          }
        } catch (error) {
          logger.error('Delivery attempt failed', { messageId: record.messageId, error });
          failed.push(record.messageId);
        }
      }),
    );
    return { batchItemFailures: failed.map((itemIdentifier) => ({ itemIdentifier })) };
  });
}
