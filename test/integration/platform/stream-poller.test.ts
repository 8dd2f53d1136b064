import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { startStreamPoller, type DiscardedBatch, type StreamPollerOptions } from '../../../infra/local/stream-poller.js';
import { tableOfItsOwn } from '../../support/table.js';

/**
 * The local stream poller gives records up as Lambda's event source mapping does (retry attempts, maximum record age,
 * bisection), so that locally, as in AWS, only the outbox sweep saves a record the stream gave up on. Its own table, so
 * that no other test's records reach its pollers.
 */
let tableName: string;
const pollers: { stop: () => Promise<void> }[] = [];
const documents = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: inject('dynamoEndpoint'), region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }));

beforeAll(async () => {
  tableName = await tableOfItsOwn();
});

afterAll(async () => {
  await Promise.all(pollers.map((poller) => poller.stop()));
  documents.destroy();
});

const nameOf = (record: DynamoDBRecord) => record.dynamodb!.NewImage!.name!.S!;
const write = (group: string, name: string) => documents.send(new PutCommand({ TableName: tableName, Item: { pk: `${group}#${name}`, sk: '-', group, name } }));

/** A poller of the records written for `group`, whose handler `decide`s each call; what it saw and gave up. */
async function pollerOf(group: string, decide: (names: string[], records: DynamoDBRecord[]) => DynamoDBBatchResponse, options: Partial<StreamPollerOptions>) {
  const calls: string[][] = [];
  const discarded: DiscardedBatch[] = [];
  const sequences = new Map<string, string>();
  pollers.push(
    await startStreamPoller({
      endpoint: inject('dynamoEndpoint'),
      tableName,
      filter: (record) => record.eventName === 'INSERT' && record.dynamodb?.NewImage?.group?.S === group,
      handler: async ({ Records }: DynamoDBStreamEvent) => {
        const names = Records.map(nameOf);
        Records.forEach((record) => sequences.set(nameOf(record), record.dynamodb!.SequenceNumber!));
        calls.push(names);
        return decide(names, Records);
      },
      onDiscard: (batch) => discarded.push(batch),
      retryDelayMs: 20,
      ...options,
    }),
  );
  return { calls, discarded, sequenceOf: (name: string) => sequences.get(name) };
}

/** The failure report of a handler that fails `name`, and handles the rest of its batch. */
const failing = (name: string) => (names: string[], records: DynamoDBRecord[]) => ({
  batchItemFailures: records.filter((_, i) => names[i] === name).map((r) => ({ itemIdentifier: r.dynamodb!.SequenceNumber! })),
});

describe('local stream poller', () => {
  it('retries a reported record with the records after it, gives it up after the retry attempts, and reads on', async () => {
    const poller = await pollerOf('retries', failing('poison'), { retryAttempts: 2 });
    await write('retries', 'before');
    await write('retries', 'poison');
    await write('retries', 'after');
    await expect.poll(() => poller.discarded.length, { timeout: 15_000, interval: 50 }).toBe(1);
    expect(poller.discarded[0]).toMatchObject({
      condition: 'RetryAttemptsExhausted',
      approximateInvokeCount: 3,
      DDBStreamBatchInfo: { startSequenceNumber: poller.sequenceOf('poison') },
    });
    // One call and two retries of the poisoned record; the one before it is not handed over again.
    expect(poller.calls.flat().filter((name) => name === 'poison')).toHaveLength(3);
    expect(poller.calls.flat().filter((name) => name === 'before')).toHaveLength(1);
    await write('retries', 'later');
    await expect.poll(() => poller.calls.flat().includes('later'), { timeout: 15_000, interval: 50 }).toBe(true);
    expect(poller.discarded).toHaveLength(1);
  });

  it('halves a batch whose handler throws until the record that throws is alone, and gives up only that one', async () => {
    // Written before the poller starts, so that the first call has them all.
    for (const name of ['a', 'b', 'poison', 'c']) await write('bisect', name);
    // The poller logs each call that threw: expected here.
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const poller = await pollerOf(
      'bisect',
      (names) => {
        if (names.includes('poison')) throw new Error('this batch cannot be handled');
        return { batchItemFailures: [] };
      },
      { retryAttempts: 3, bisectBatchOnError: true },
    );
    // Handled: in a call that succeeded, which none with the poisoned record does.
    const handled = () => poller.calls.filter((names) => !names.includes('poison')).flat();
    await expect.poll(() => handled().includes('c'), { timeout: 15_000, interval: 50 }).toBe(true);
    expect(poller.calls[0]).toEqual(['a', 'b', 'poison', 'c']);
    expect(handled().sort()).toEqual(['a', 'b', 'c']);
    expect(poller.discarded).toHaveLength(1);
    expect(poller.discarded[0]!.DDBStreamBatchInfo).toMatchObject({ startSequenceNumber: poller.sequenceOf('poison'), endSequenceNumber: poller.sequenceOf('poison'), batchSize: 1 });
    expect(logged).toHaveBeenCalledWith('stream poller: handler failed; the batch will be retried', expect.any(Error));
    logged.mockRestore();
  });

  it('gives up a record older than the maximum age, however many retries are left', async () => {
    let hoursLater = 0;
    const poller = await pollerOf('age', failing('poison'), { retryAttempts: -1, maxRecordAgeSeconds: 3600, clock: () => Date.now() + hoursLater * 3600_000 });
    await write('age', 'poison');
    await expect.poll(() => poller.calls.length, { timeout: 15_000, interval: 50 }).toBeGreaterThan(2);
    expect(poller.discarded).toEqual([]);
    hoursLater = 2;
    await expect.poll(() => poller.discarded.length, { timeout: 15_000, interval: 50 }).toBe(1);
    expect(poller.discarded[0]).toMatchObject({ condition: 'RecordAgeExceeded', DDBStreamBatchInfo: { startSequenceNumber: poller.sequenceOf('poison'), batchSize: 1 } });
    hoursLater = 0;
    await write('age', 'later');
    await expect.poll(() => poller.calls.flat().includes('later'), { timeout: 15_000, interval: 50 }).toBe(true);
  });
});
