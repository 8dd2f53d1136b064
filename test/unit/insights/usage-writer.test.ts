import { BatchGetCommand, BatchWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Context, SQSEvent } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createUsageEventWriterHandler } from '../../../functions/usage-event-writer/app.js';
import type { UsageMessage } from '../../../shared/insights/analytics/usage-message.js';
import { writeUsage } from '../../../shared/insights/analytics/usage-writer.js';
import type { Config } from '../../../shared/platform/config.js';
import { LICENSE_KEY, NOW, ids, licenseItem } from '../../support/mock-items.js';
import { mockTable, type MockTable } from '../../support/mock-table.js';

/**
 * The usage event writer against the failures DynamoDB Local never produces (items left unprocessed, a count the
 * table refuses) and the redelivery SQS may make at any time; the connected path is test/integration/insights/analytics.test.ts.
 */
const OTHER_PRODUCT = 'prd_bbbbbbbbbbbbbbbbbbbbbbbb';
const OTHER_KEY = 'OTHER-ABCD-EFGH-JKLM-NPQR';
const DAY = NOW.toISOString().slice(0, 10);

let table: MockTable;
afterEach(() => table.ddb.restore());

function setUp() {
  table = mockTable();
  table.seed('license', licenseItem);
  table.seed('license', { ...licenseItem, licenseKey: OTHER_KEY, licenseId: 'lic_bbbbbbbbbbbbbbbbbbbbbbbb', productId: OTHER_PRODUCT });
  return { data: table.data, config: { analytics: { retentionDays: 90 } } as Config, clock: { now: () => NOW } };
}

const eventId = (n: number) => `uev_${String(n).padStart(24, 'a')}`;
const event = (n: number, fields: Partial<UsageMessage> = {}): UsageMessage => ({
  kind: 'event', eventId: eventId(n), productId: ids.product, event: 'opened', receivedAt: NOW.toISOString(), ...fields,
} as UsageMessage);
const received = (message: unknown, receiveCount = 1, n = 0) => ({ messageId: `m${n}`, body: JSON.stringify(message), receiveCount });
const batch = (messages: unknown[], receiveCount = 1) => messages.map((m, n) => received(m, receiveCount, n));

/** The items every BatchWriteItem request put, one list per request. */
const putRequests = () =>
  table.ddb.commandCalls(BatchWriteCommand).map((call) => Object.values(call.args[0].input.RequestItems!)[0]!.map((r) => r.PutRequest!.Item!));
/** Each daily count bumped: its sort key (day, metric, name) and the number added. */
const bumps = () =>
  table.ddb.commandCalls(UpdateCommand).map(({ args: [{ input }] }) => [String(input.Key!.sk).replace(/^.*?#day_/, ''), Object.values(input.ExpressionAttributeValues!).find((v) => typeof v === 'number')]);

describe('usage event writer', () => {
  it('stores a batch 25 events to a request and bumps each count once, by the number it counts', async () => {
    const deps = setUp();
    const messages = [
      ...Array.from({ length: 60 }, (_, n) => event(n, { event: n % 3 ? 'opened' : 'saved' })),
      { kind: 'install', productId: ids.product, day: DAY, version: '2.0.0' },
      { kind: 'install', productId: ids.product, day: DAY },
    ];
    expect(await writeUsage(deps, batch(messages))).toEqual([]);
    expect(putRequests().map((items) => items.length)).toEqual([25, 25, 10]);
    expect(bumps().sort()).toEqual([
      [`${DAY}#metric_event#name_opened`, 40],
      [`${DAY}#metric_event#name_saved`, 20],
      [`${DAY}#metric_installs#name_all`, 2],
      [`${DAY}#metric_version#name_2.0.0`, 1],
    ]);
  });

  it("reads each license key once, and keeps it on an event only when the license is the event's product's", async () => {
    const deps = setUp();
    const messages = [event(1, { licenseKey: LICENSE_KEY }), event(2, { licenseKey: LICENSE_KEY }), event(3, { licenseKey: OTHER_KEY }), event(4, { licenseKey: 'NOPE-ABCD-EFGH-JKLM-NPQR' })];
    expect(await writeUsage(deps, batch(messages))).toEqual([]);
    const reads = table.ddb.commandCalls(BatchGetCommand);
    expect(reads).toHaveLength(1);
    expect(Object.values(reads[0]!.args[0].input.RequestItems!)[0]!.Keys).toHaveLength(3);
    const stored = putRequests().flat();
    expect(stored.map((item) => [item.eventId, item.licenseId, item.licenseKey])).toEqual([
      [eventId(1), ids.license, LICENSE_KEY],
      [eventId(2), ids.license, LICENSE_KEY],
      [eventId(3), undefined, undefined],
      [eventId(4), undefined, undefined],
    ]);
  });

  it('skips a redelivered event that is already stored, counts included, and writes one that is not', async () => {
    const deps = setUp();
    const [first, second] = [event(1), event(2)] as [Extract<UsageMessage, { kind: 'event' }>, Extract<UsageMessage, { kind: 'event' }>];
    table.seed('usageEvent', { productId: ids.product, day: DAY, eventId: first.eventId, event: 'opened', createdAt: first.receivedAt, ttl: 1 });
    expect(await writeUsage(deps, batch([first, second], 2))).toEqual([]);
    expect(putRequests().flat().map((item) => item.eventId)).toEqual([second.eventId]);
    expect(bumps()).toEqual([[`${DAY}#metric_event#name_opened`, 1]]);
    // A first delivery is never looked up: it cannot have been stored.
    table.ddb.resetHistory();
    await writeUsage(deps, batch([event(3)]));
    expect(table.ddb.commandCalls(BatchGetCommand)).toHaveLength(0);
  });

  it('asks again for items left unprocessed, and reports through the handler the messages whose events stay so', async () => {
    const deps = setUp();
    const handler = createUsageEventWriterHandler(deps);
    const sqsEvent = (messages: unknown[]): SQSEvent => ({
      Records: batch(messages).map(({ messageId, body }) => ({ messageId, body, attributes: { ApproximateReceiveCount: '1' } })) as SQSEvent['Records'],
    });
    const leaveUnprocessed = (input: { RequestItems: Record<string, { PutRequest?: { Item?: Record<string, unknown> } }[]> }) => ({
      UnprocessedItems: { table: input.RequestItems.table!.filter((r) => r.PutRequest!.Item!.eventId === eventId(2)) },
    });

    table.ddb.on(BatchWriteCommand).callsFakeOnce(leaveUnprocessed).resolves({ UnprocessedItems: {} });
    expect(await handler(sqsEvent([event(1), event(2), event(3)]), {} as Context)).toEqual({ batchItemFailures: [] });
    expect(putRequests().map((items) => items.map((item) => item.eventId))).toEqual([[eventId(1), eventId(2), eventId(3)], [eventId(2)]]);

    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    table.ddb.on(BatchWriteCommand).callsFake(leaveUnprocessed);
    expect(await handler(sqsEvent([event(1), event(2), event(3)]), {} as Context)).toEqual({ batchItemFailures: [{ itemIdentifier: 'm1' }] });
  });

  it('returns the messages of a count the table refuses, unwritten, and drops a message that is not one', async () => {
    const deps = setUp();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    table.failItemWrites(UpdateCommand, 'ProvisionedThroughputExceededException');
    const messages = [event(1), event(2, { productId: OTHER_PRODUCT }), '{not json', { kind: 'event', eventId: eventId(9) }];
    const failed = await writeUsage(deps, messages.map((m, n) => (typeof m === 'string' ? { messageId: `m${n}`, body: m, receiveCount: 1 } : received(m, 1, n))));
    expect(failed.sort()).toEqual(['m0', 'm1']);
    expect(putRequests()).toEqual([]);
    expect(errors.mock.calls.filter(([line]) => String(line).includes('Usage message dropped'))).toHaveLength(2);
  });
});
