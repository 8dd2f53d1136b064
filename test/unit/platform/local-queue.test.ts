import { ChangeMessageVisibilityCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { startLocalQueue, type LocalQueue } from '../../../infra/local/queue.js';

let queue: LocalQueue | undefined;
afterEach(() => queue?.stop());

async function start(maxReceiveCount = 3, batchingWindowMs?: number) {
  queue = await startLocalQueue({
    name: 'q',
    deadLetterName: 'q-dlq',
    visibilityTimeoutSeconds: 1,
    maxReceiveCount,
    batchSize: 10,
    batchingWindowMs,
    concurrency: 1,
    pollIntervalMs: 10,
  });
  const sqs = new SQSClient({ endpoint: queue.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
  return { queue, sqs, send: (body: string, DelaySeconds?: number) => sqs.send(new SendMessageCommand({ QueueUrl: queue!.queueUrl, MessageBody: body, DelaySeconds })) };
}

const until = async (probe: () => boolean) => {
  const deadline = Date.now() + 8000;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('local queue (SQS semantics)', () => {
  it('deletes handled messages and brings back the ones reported as failed, counting receives', async () => {
    const { queue, send } = await start();
    const seen: { body: string; count: string }[] = [];
    queue.consume(async (event: SQSEvent) => {
      for (const r of event.Records) seen.push({ body: r.body, count: r.attributes.ApproximateReceiveCount });
      return { batchItemFailures: event.Records.filter((r) => r.body === 'again' && r.attributes.ApproximateReceiveCount === '1').map((r) => ({ itemIdentifier: r.messageId })) };
    });
    await send('once');
    await send('again');
    await until(() => seen.length === 3);
    expect(seen).toEqual([{ body: 'once', count: '1' }, { body: 'again', count: '1' }, { body: 'again', count: '2' }]);
    await until(() => queue.state().messages === 0);
  });

  it('gathers a batch for its batching window, and hands a full batch over at once', async () => {
    const { queue, send } = await start(3, 500);
    const batches: { size: number; at: number }[] = [];
    queue.consume(async (event) => void batches.push({ size: event.Records.length, at: Date.now() }));
    const sentAt = Date.now();
    for (let i = 0; i < 3; i++) await send(`short ${i}`);
    await until(() => batches.length === 1);
    expect(batches[0]!.size).toBe(3);
    expect(batches[0]!.at - sentAt).toBeGreaterThanOrEqual(450);
    const fullAt = Date.now();
    await Promise.all(Array.from({ length: 10 }, (_, i) => send(`full ${i}`)));
    await until(() => batches.length === 2);
    expect(batches[1]).toMatchObject({ size: 10 });
    expect(batches[1]!.at - fullAt).toBeLessThan(450);
  });

  it('holds a delayed message back and honours a changed visibility timeout', async () => {
    const { queue, send, sqs } = await start();
    const times: number[] = [];
    const sentAt = Date.now();
    queue.consume(async (event) => {
      times.push(Date.now());
      const [record] = event.Records;
      if (times.length > 1) return;
      await sqs.send(new ChangeMessageVisibilityCommand({ QueueUrl: queue.queueUrl, ReceiptHandle: record!.receiptHandle, VisibilityTimeout: 2 }));
      return { batchItemFailures: [{ itemIdentifier: record!.messageId }] };
    });
    await send('later', 1);
    await until(() => times.length === 2);
    expect(times[0]! - sentAt).toBeGreaterThanOrEqual(1000);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(2000);
  });

  it('moves a message to the dead-letter list after maxReceiveCount receives', async () => {
    const { queue, send } = await start(2);
    let receives = 0;
    queue.consume(async (event) => {
      receives += event.Records.length;
      throw new Error('consumer crashed');
    });
    await send('poison');
    await until(() => queue.state().deadLetters.length === 1);
    expect(receives).toBe(2);
    expect(queue.state()).toMatchObject({ messages: 0, deadLetters: [{ body: 'poison', receiveCount: 2 }] });
  });
});
