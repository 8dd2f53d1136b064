import { marshall } from '@aws-sdk/util-dynamodb';
import type { Context } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFanOutHandler } from '../../../functions/outbox-fanout/app.js';
import { ServiceUnavailableError } from '../../../shared/platform/errors.js';
import type { Deps } from '../../../shared/platform/runtime.js';
import { firstDeliveryId } from '../../../shared/messaging/webhooks/deliveries.js';
import { fanOutEvent } from '../../../shared/messaging/webhooks/fan-out.js';
import { NOW, TENANT, ids } from '../../support/mock-items.js';
import { mockTable, type MockTable } from '../../support/mock-table.js';

/**
 * Recording a delivery is a transaction (the delivery and its counter). A conflict or throttling must
 * never be taken for "already recorded": the event would be dropped.
 */
const event = { eventId: 'evt_bbbbbbbbbbbbbbbbbbbbbbbb', tenantId: TENANT, type: 'license.created', data: { id: 'lic_1' }, createdAt: NOW.toISOString() };
const deliveryId = firstDeliveryId(event.eventId, ids.webhook);

let table: MockTable;
afterEach(() => table.ddb.restore());

function setUp() {
  table = mockTable();
  table.seed('webhook', {
    webhookId: ids.webhook, tenantId: TENANT, name: 'Hook', url: 'https://hooks.example/x', secret: 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0',
    events: ['license.created'], enabled: true, createdAt: NOW.toISOString(), updatedAt: NOW.toISOString(),
  });
  const enqueued: string[] = [];
  const queue = { enqueue: async (id: string) => void enqueued.push(id), retryAfter: async () => undefined, deadLetter: async () => undefined };
  return { deps: { data: table.data, clock: { now: () => NOW }, queue }, enqueued };
}

describe('webhook fan-out', () => {
  it('still delivers the event when recording its delivery met a conflict', async () => {
    const { deps, enqueued } = setUp();
    table.cancelTransactions(['TransactionConflict']);
    expect(await fanOutEvent(deps, event)).toBe(1);
    expect(enqueued).toEqual([deliveryId]);
  });

  it('fails the stream record when the table stays throttled, so the stream hands it over again', async () => {
    const { deps, enqueued } = setUp();
    table.alwaysCancelTransactions(['ThrottlingError']);
    await expect(fanOutEvent(deps, event)).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(enqueued).toEqual([]);

    // The handler logs the record it fails (the logger writes through the console in tests): expected here.
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const handler = createFanOutHandler({ ...deps, config: {} } as unknown as Deps, { deliveries: deps.queue, mail: { enqueue: async () => undefined } });
    const outbox = table.data.entities.outboxEvent.put({ ...event, ttl: 1 }).params<{ Item: Record<string, unknown> }>().Item;
    const record = { eventID: '1', eventName: 'INSERT' as const, dynamodb: { SequenceNumber: '42', NewImage: marshall(outbox) as never } };
    expect(await handler({ Records: [record] }, {} as Context)).toEqual({ batchItemFailures: [{ itemIdentifier: '42' }] });
  });

  it('queues an existing delivery again only while it has not been attempted', async () => {
    for (const [attempts, expected] of [[0, [deliveryId]], [1, []]] as const) {
      const { deps, enqueued } = setUp();
      table.seed('delivery', {
        deliveryId, webhookId: ids.webhook, tenantId: TENANT, eventId: event.eventId, eventType: event.type, payload: '{}',
        status: 'pending', attempts, createdAt: NOW.toISOString(),
      });
      table.cancelTransactions(['ConditionalCheckFailed']);
      await fanOutEvent(deps, event);
      expect(enqueued).toEqual(expected);
      table.ddb.restore();
    }
  });
});
