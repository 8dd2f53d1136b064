import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { mailMessageOf, type MailQueue } from '../../shared/mail/mail-queue.js';
import { logger } from '../../shared/observability/logger.js';
import type { Deps } from '../../shared/runtime.js';
import type { DeliveryQueue } from '../../shared/webhooks/delivery-queue.js';
import { fanOutEvent, type OutboxEvent } from '../../shared/webhooks/fan-out.js';
import { workerApp } from '../../shared/workers/app.js';
import { matchesFilter, OUTBOX_INSERT_FILTER } from './outbox-filter.js';

/**
 * The outbox fan-out (table stream event source with ReportBatchItemFailures): each outbox event becomes one
 * delivery per subscribed webhook, and each queued e-mail one message on the mail queue. Records are handled
 * in order; on the first failure the rest of the batch is reported back, so the stream retries from that record
 * and nothing after it is skipped. Either step is safe to repeat: the dispatcher and the sender act once.
 */
export function createFanOutHandler(deps: Deps, queues: { deliveries: DeliveryQueue; mail: MailQueue }) {
  return workerApp(async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
    for (const record of event.Records) {
      if (!matchesFilter(OUTBOX_INSERT_FILTER, record)) continue;
      try {
        const image = unmarshall(record.dynamodb!.NewImage as Record<string, AttributeValue>);
        const mail = mailMessageOf(image);
        if (mail) {
          await queues.mail.enqueue(mail);
          continue;
        }
        const { data } = deps.data.entities.outboxEvent.parse({ Item: image });
        if (!data) continue;
        await fanOutEvent({ ...deps, queue: queues.deliveries }, data as OutboxEvent);
      } catch (error) {
        logger.error('Fan-out failed', { eventID: record.eventID, error });
        return { batchItemFailures: [{ itemIdentifier: record.dynamodb!.SequenceNumber! }] };
      }
    }
    return { batchItemFailures: [] };
  });
}
