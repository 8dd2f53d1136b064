import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { logger } from '../../shared/observability/logger.js';
import { forwardOutboxItem, outboxItemOf, type OutboxQueues } from '../../shared/outbox/forwarders.js';
import type { Deps } from '../../shared/runtime.js';
import { workerApp } from '../../shared/workers/app.js';
import { matchesFilter, OUTBOX_INSERT_FILTER } from './outbox-filter.js';

/**
 * The outbox fan-out (table stream event source with ReportBatchItemFailures): each outbox event becomes one
 * delivery per subscribed webhook, and each license e-mail one message on the mail queue; each item is then marked
 * forwarded. A record that fails does not hold up the others of the batch (other tenants' events and e-mails): they
 * are forwarded, and the failed ones reported; the stream retries from the first of them (forwarding the later ones
 * again, which is safe: the dispatcher and the sender act once), then gives up on it, and the sweep forwards it.
 */
export function createFanOutHandler(deps: Pick<Deps, 'data' | 'clock'>, queues: OutboxQueues) {
  const forwarding = { ...deps, queues };
  return workerApp(async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
    const failed: string[] = [];
    for (const record of event.Records) {
      if (!matchesFilter(OUTBOX_INSERT_FILTER, record)) continue;
      try {
        const image = unmarshall(record.dynamodb!.NewImage as Record<string, AttributeValue>);
        const item = outboxItemOf(image);
        if (item) await forwardOutboxItem(forwarding, item, image);
      } catch (error) {
        logger.error('Fan-out failed', { eventID: record.eventID, error });
        failed.push(record.dynamodb!.SequenceNumber!);
      }
    }
    return { batchItemFailures: failed.map((itemIdentifier) => ({ itemIdentifier })) };
  });
}
