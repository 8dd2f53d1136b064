import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import pLimit from 'p-limit';
import { linkAuditEntries, type StoredAuditEntry } from '../../shared/identity/index.js';
import { logger } from '../../shared/platform/observability/index.js';
import { forwardOutboxItem, outboxItemOf, type OutboxQueues } from '../../shared/messaging/index.js';
import type { Deps } from '../../shared/platform/index.js';
import { workerApp } from '../../shared/platform/workers/index.js';
import { AUDIT_ENTRY_INSERT_FILTER, matchesFilter, OUTBOX_INSERT_FILTER } from './outbox-filter.js';

/**
 * Records (or tenants' audit entries) handled at once: one at a time, a shard would move at a record per two round
 * trips; a whole batch of 100 at once is a burst of several hundred requests, under which DynamoDB Local drops
 * connections.
 */
export const FORWARDS_AT_ONCE = 16;

const imageOf = (record: DynamoDBRecord) => unmarshall(record.dynamodb!.NewImage as Record<string, AttributeValue>);

/**
 * The outbox fan-out (table stream event source with ReportBatchItemFailures): each outbox event becomes one
 * delivery per subscribed webhook, and each license e-mail one message on the mail queue; each item is then marked
 * forwarded. A record that fails does not hold up the others of the batch (other tenants' events and e-mails): they
 * are forwarded, and the failed ones reported; the stream retries from the first of them (forwarding the later ones
 * again, which is safe: the dispatcher and the sender act once), then gives up on it, and the sweep forwards it.
 * New audit entries are linked into their tenant's chain, a tenant's entries of the batch together (linking is safe to
 * repeat; what the stream gives up on, the next `verify` links). Records and tenants are handled `FORWARDS_AT_ONCE`
 * at a time.
 */
export function createFanOutHandler(deps: Pick<Deps, 'data' | 'clock'>, queues: OutboxQueues) {
  const forwarding = { ...deps, queues };

  /** The record's sequence number if forwarding it failed. */
  async function forwardRecord(record: DynamoDBRecord): Promise<string[]> {
    try {
      const image = imageOf(record);
      const item = outboxItemOf(image);
      if (item) await forwardOutboxItem(forwarding, item, image);
      return [];
    } catch (error) {
      logger.error('Fan-out failed', { eventID: record.eventID, error });
      return [record.dynamodb!.SequenceNumber!];
    }
  }

  /** The records' sequence numbers if linking them failed. */
  async function linkTenantEntries(tenantId: string, records: DynamoDBRecord[]): Promise<string[]> {
    try {
      await linkAuditEntries(deps.data, tenantId, records.map((record) => imageOf(record) as StoredAuditEntry));
      return [];
    } catch (error) {
      logger.error('Audit linking failed', { tenantId, error });
      return records.map((record) => record.dynamodb!.SequenceNumber!);
    }
  }

  return workerApp(async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
    const outboxRecords: DynamoDBRecord[] = [];
    const auditRecords = new Map<string, DynamoDBRecord[]>();
    for (const record of event.Records) {
      if (matchesFilter(AUDIT_ENTRY_INSERT_FILTER, record)) {
        const tenantId = String(record.dynamodb!.NewImage!.tenantId?.S);
        auditRecords.set(tenantId, [...(auditRecords.get(tenantId) ?? []), record]);
      } else if (matchesFilter(OUTBOX_INSERT_FILTER, record)) {
        outboxRecords.push(record);
      }
    }
    // The records are independent. The stream retries from the lowest failed sequence number, whatever order they are
    // reported in.
    const limit = pLimit(FORWARDS_AT_ONCE);
    const failed = await Promise.all([
      ...outboxRecords.map((record) => limit(() => forwardRecord(record))),
      ...[...auditRecords].map(([tenantId, records]) => limit(() => linkTenantEntries(tenantId, records))),
    ]);
    return { batchItemFailures: failed.flat().map((itemIdentifier) => ({ itemIdentifier })) };
  });
}
