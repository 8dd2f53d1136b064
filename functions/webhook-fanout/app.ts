import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { logger } from '../../shared/observability/logger.js';
import type { Deps } from '../../shared/runtime.js';
import type { DeliveryQueue } from '../../shared/webhooks/delivery-queue.js';
import { fanOutEvent, type OutboxEvent } from '../../shared/webhooks/fan-out.js';
import { workerApp } from '../../shared/workers/app.js';
import { matchesFilter, OUTBOX_INSERT_FILTER } from './outbox-filter.js';

/**
 * The outbox fan-out (table stream event source with ReportBatchItemFailures): each outbox insert becomes
 * one delivery per subscribed webhook. Records are handled in order; on the first failure the rest of the
 * batch is reported back, so the stream retries from that record and nothing after it is skipped.
 */
export function createFanOutHandler(deps: Deps, queue: DeliveryQueue) {
  return workerApp(async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
    for (const record of event.Records) {
      if (!matchesFilter(OUTBOX_INSERT_FILTER, record)) continue;
      try {
        const image = unmarshall(record.dynamodb!.NewImage as Record<string, AttributeValue>);
        const { data } = deps.data.entities.outboxEvent.parse({ Item: image });
        if (!data) continue;
        await fanOutEvent({ ...deps, queue }, data as OutboxEvent);
      } catch (error) {
        logger.error('Fan-out failed', { eventID: record.eventID, error });
        return { batchItemFailures: [{ itemIdentifier: record.dynamodb!.SequenceNumber! }] };
      }
    }
    return { batchItemFailures: [] };
  });
}
