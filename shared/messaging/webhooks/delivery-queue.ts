import type { SQSClient } from '@aws-sdk/client-sqs';
import { loadSqsSdk, type SqsSdk } from '../../platform/aws/index.js';
import { awsClientOptions, type CoreConfig } from '../../platform/index.js';
import { MAX_ATTEMPTS } from './retry-schedule.js';

/** What a queue message says: which delivery to attempt. Everything else is read from the table. */
export type DeliveryMessage = { deliveryId: string };

/** The webhook delivery queue (SQS in AWS, the local stack's queue locally). */
export type DeliveryQueue = {
  /** Queues a first attempt. */
  enqueue(deliveryId: string): Promise<void>;
  /** Hides a received message for `seconds`: the next attempt (SQS allows up to 12 h per receive). */
  retryAfter(receiptHandle: string, seconds: number): Promise<void>;
  /** Moves a message whose delivery has given up to the dead-letter queue. */
  deadLetter(body: string): Promise<void>;
};

/**
 * SQS refuses a visibility timeout reaching past 12 h from the receive; the send before it took up to
 * the dispatcher's timeout. A longer wait comes back early and is put off again for the rest.
 */
const MAX_VISIBILITY_SECONDS = 12 * 3600 - 60;

/**
 * The SQS client is loaded and built by the first message: the dispatcher calls SQS only for a retry or a dead letter,
 * and management only to redeliver, so most of their containers never load it (shared/platform/aws/queue-sender.ts does the same).
 */
export function createDeliveryQueue(config: CoreConfig): DeliveryQueue {
  const { queueUrl, deadLetterQueueUrl } = config.webhooks;
  let sqs: Promise<{ client: SQSClient; sdk: SqsSdk }> | undefined;
  const load = async () => {
    const sdk = await loadSqsSdk();
    return { client: new sdk.SQSClient(awsClientOptions(config, config.endpoints.sqs)), sdk };
  };
  const required = (url: string | undefined, name: string) => {
    if (!url) throw new Error(`${name} is not configured`);
    return url;
  };
  return {
    async enqueue(deliveryId) {
      const body: DeliveryMessage = { deliveryId };
      const { client, sdk } = await (sqs ??= load());
      await client.send(new sdk.SendMessageCommand({ QueueUrl: required(queueUrl, 'QUEUE_URL'), MessageBody: JSON.stringify(body) }));
    },
    async retryAfter(receiptHandle, seconds) {
      const { client, sdk } = await (sqs ??= load());
      await client.send(
        new sdk.ChangeMessageVisibilityCommand({ QueueUrl: required(queueUrl, 'QUEUE_URL'), ReceiptHandle: receiptHandle, VisibilityTimeout: Math.min(seconds, MAX_VISIBILITY_SECONDS) }),
      );
    },
    async deadLetter(body) {
      const { client, sdk } = await (sqs ??= load());
      await client.send(new sdk.SendMessageCommand({ QueueUrl: required(deadLetterQueueUrl, 'DEAD_LETTER_QUEUE_URL'), MessageBody: body }));
    },
  };
}

/**
 * SQS moves a message to the dead-letter queue after this many receives. Every attempt is one receive,
 * and the dispatcher moves a delivery that has used all its attempts there itself; the margin is for
 * receives that did not reach an attempt (a crashed or timed-out batch), so only a message that keeps
 * crashing the dispatcher ends there this way.
 */
export const MAX_RECEIVE_COUNT = 2 * MAX_ATTEMPTS;

/** How the queue feeds the dispatcher, in AWS and locally alike. */
export const DELIVERY_QUEUE_SETTINGS = {
  /** Sends in a batch run in parallel, each at most 10 s: the dispatcher gets 30 s. */
  dispatcherTimeoutSeconds: 30,
  /** Several times the dispatcher's timeout, so a message is not handed out again while a batch still runs. */
  visibilityTimeoutSeconds: 180,
  batchSize: 10,
  maxReceiveCount: MAX_RECEIVE_COUNT,
  /**
   * Concurrent dispatchers at most (SQS event source `maxConcurrency`): 10 parallel sends each, and a new account may
   * run only 10 functions at once, which plugins' calls must not find taken by a burst of webhooks.
   */
  maxConcurrency: 3,
};
