import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';

/** One message as SQS keeps it. */
type StoredMessage = {
  messageId: string;
  body: string;
  sentAt: number;
  /** The message is handed out again at or after this time (delay, visibility timeout). */
  visibleAt: number;
  receiveCount: number;
  firstReceivedAt?: number;
  /** The handle of the current receive; a later receive makes the old one useless, as in SQS. */
  receiptHandle?: string;
};

export type QueueConsumer = (event: SQSEvent) => Promise<SQSBatchResponse | void>;

export type LocalQueueOptions = {
  name: string;
  deadLetterName: string;
  visibilityTimeoutSeconds: number;
  /** After this many receives a message moves to the dead-letter list instead (redrive policy). */
  maxReceiveCount: number;
  batchSize: number;
  /** As an event source's batching window: a batch short of `batchSize` waits until its oldest message has waited this long. */
  batchingWindowMs?: number;
  /** Batches handled at once, as Lambda runs several consumers. */
  concurrency: number;
  /** With a file, messages survive a restart (written on every change), as SQS keeps them. */
  stateFile?: string;
  pollIntervalMs?: number;
  /** The endpoint that serves this queue among others (one `SQS_ENDPOINT` for every queue); default its own. */
  sqsEndpoint?: SqsEndpoint;
};

export type LocalQueue = {
  /** Base address of the SQS-compatible endpoint (JSON protocol): SendMessage, ChangeMessageVisibility, GetQueueAttributes. */
  endpoint: string;
  queueUrl: string;
  deadLetterQueueUrl: string;
  /** Starts handing messages to `consumer` the way Lambda's SQS event source does. */
  consume: (consumer: QueueConsumer) => void;
  state: () => { messages: number; inFlight: number; deadLetters: { messageId: string; body: string; receiveCount: number }[] };
  /** Stops receiving, lets running batches finish, saves, and closes the endpoint. */
  stop: () => Promise<void>;
};

/** What the endpoint calls on the queue a request names by its `QueueUrl`. */
type QueueActions = {
  send: (queueUrl: string, body: string, delaySeconds?: number) => StoredMessage;
  changeVisibility: (queueUrl: string, receiptHandle: string, seconds: number) => void;
  /** The messages available to receive, as `ApproximateNumberOfMessages` (the health check reads dead-letter queues'). */
  visibleMessages: (queueUrl: string) => number;
};

/** An SQS-compatible endpoint (JSON protocol: SendMessage, ChangeMessageVisibility, GetQueueAttributes) for several local queues. */
export type SqsEndpoint = {
  url: string;
  register: (queueUrls: string[], actions: QueueActions) => void;
  stop: () => Promise<void>;
};

class SqsError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

export async function startSqsEndpoint(): Promise<SqsEndpoint> {
  const queues = new Map<string, QueueActions>();
  const queueNamed = (url: string) => {
    const actions = queues.get(url);
    if (!actions) throw new SqsError('QueueDoesNotExist', `The specified queue does not exist: ${url}`);
    return actions;
  };

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0' });
      res.end(JSON.stringify(body));
    };
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const input = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
      const action = String(req.headers['x-amz-target'] ?? '').replace(/^AmazonSQS\./, '');
      const queueUrl = String(input.QueueUrl);
      if (action === 'SendMessage') {
        const message = queueNamed(queueUrl).send(queueUrl, String(input.MessageBody), Number(input.DelaySeconds ?? 0));
        return reply(200, { MessageId: message.messageId, MD5OfMessageBody: md5(message.body) });
      }
      if (action === 'GetQueueAttributes') {
        return reply(200, { Attributes: { ApproximateNumberOfMessages: String(queueNamed(queueUrl).visibleMessages(queueUrl)) } });
      }
      if (action === 'ChangeMessageVisibility') {
        queueNamed(queueUrl).changeVisibility(queueUrl, String(input.ReceiptHandle), Number(input.VisibilityTimeout));
        return reply(200, {});
      }
      throw new SqsError('UnsupportedOperation', `${action} is not supported by the local queue`);
    } catch (error) {
      const type = error instanceof SqsError ? error.type : 'InternalError';
      reply(400, { __type: `com.amazonaws.sqs#${type}`, message: (error as Error).message });
    }
  }

  const server = createServer((req, res) => void answer(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    register: (queueUrls, actions) => queueUrls.forEach((url) => queues.set(url, actions)),
    stop: () => closeServer(server),
  };
}

/**
 * An in-process stand-in for an SQS queue with a dead-letter queue, with the semantics the webhook
 * dispatcher relies on: per-message delay, visibility timeout, receive count, partial batch failures
 * (reported messages stay and come back; the others are deleted) and redrive after `maxReceiveCount`.
 */
export async function startLocalQueue(options: LocalQueueOptions): Promise<LocalQueue> {
  const saved = options.stateFile && existsSync(options.stateFile)
    ? (JSON.parse(readFileSync(options.stateFile, 'utf8')) as { messages: StoredMessage[]; deadLetters: StoredMessage[] })
    : { messages: [], deadLetters: [] };
  const messages = new Map(saved.messages.map((m) => [m.messageId, m]));
  const deadLetters = saved.deadLetters;
  const save = () => {
    if (!options.stateFile) return;
    const temporary = `${options.stateFile}.tmp`;
    writeFileSync(temporary, JSON.stringify({ messages: [...messages.values()], deadLetters }));
    renameSync(temporary, options.stateFile);
  };

  const sqsEndpoint = options.sqsEndpoint ?? (await startSqsEndpoint());
  const endpoint = sqsEndpoint.url;
  const queueUrl = `${endpoint}/000000000000/${options.name}`;
  const deadLetterQueueUrl = `${endpoint}/000000000000/${options.deadLetterName}`;
  const arn = (name: string) => `arn:aws:sqs:us-east-1:000000000000:${name}`;

  function send(queue: string, body: string, delaySeconds = 0): StoredMessage {
    const now = Date.now();
    const message: StoredMessage = { messageId: randomUUID(), body, sentAt: now, visibleAt: now + delaySeconds * 1000, receiveCount: 0 };
    if (queue === queueUrl) messages.set(message.messageId, message);
    else if (queue === deadLetterQueueUrl) deadLetters.push(message);
    else throw new SqsError('QueueDoesNotExist', `The specified queue does not exist: ${queue}`);
    save();
    return message;
  }

  function changeVisibility(queue: string, receiptHandle: string, seconds: number): void {
    if (queue !== queueUrl) throw new SqsError('QueueDoesNotExist', `The specified queue does not exist: ${queue}`);
    if (!Number.isInteger(seconds) || seconds < 0 || seconds > 43_200) {
      throw new SqsError('InvalidParameterValue', 'VisibilityTimeout must be a whole number of seconds from 0 to 43200');
    }
    const message = [...messages.values()].find((m) => m.receiptHandle === receiptHandle);
    if (!message) throw new SqsError('ReceiptHandleIsInvalid', 'The receipt handle is not valid or has expired');
    message.visibleAt = Date.now() + seconds * 1000;
    save();
  }

  const visibleMessages = (queue: string) =>
    queue === deadLetterQueueUrl ? deadLetters.length : [...messages.values()].filter((m) => m.visibleAt <= Date.now()).length;

  sqsEndpoint.register([queueUrl, deadLetterQueueUrl], { send, changeVisibility, visibleMessages });

  function toRecord(message: StoredMessage): SQSRecord {
    return {
      messageId: message.messageId,
      receiptHandle: message.receiptHandle!,
      body: message.body,
      attributes: {
        ApproximateReceiveCount: String(message.receiveCount),
        SentTimestamp: String(message.sentAt),
        SenderId: 'local',
        ApproximateFirstReceiveTimestamp: String(message.firstReceivedAt),
      },
      messageAttributes: {},
      md5OfBody: md5(message.body),
      eventSource: 'aws:sqs',
      eventSourceARN: arn(options.name),
      awsRegion: 'us-east-1',
    };
  }

  /** Receives up to a batch of visible messages, oldest first, redriving those past their last receive. */
  function receive(): StoredMessage[] {
    const now = Date.now();
    const batch: StoredMessage[] = [];
    let changed = false;
    const visible = [...messages.values()].filter((m) => m.visibleAt <= now).sort((a, b) => a.sentAt - b.sentAt);
    if (visible.length < options.batchSize && visible.length > 0 && now - visible[0]!.visibleAt < (options.batchingWindowMs ?? 0)) return [];
    for (const message of visible) {
      if (batch.length === options.batchSize) break;
      if (message.receiveCount >= options.maxReceiveCount) {
        messages.delete(message.messageId);
        deadLetters.push({ ...message, receiptHandle: undefined });
        changed = true;
        continue;
      }
      message.receiveCount += 1;
      message.firstReceivedAt ??= now;
      message.receiptHandle = randomUUID();
      message.visibleAt = now + options.visibilityTimeoutSeconds * 1000;
      batch.push(message);
    }
    if (changed || batch.length) save();
    return batch;
  }

  const running = new Set<Promise<void>>();
  let consumer: QueueConsumer | undefined;
  let timer: NodeJS.Timeout | undefined;

  async function handle(batch: StoredMessage[]): Promise<void> {
    const handles = new Map(batch.map((m) => [m.messageId, m.receiptHandle]));
    let failed: Set<string>;
    try {
      const result = await consumer!({ Records: batch.map(toRecord) });
      failed = new Set((result?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
    } catch (error) {
      console.error('local queue: consumer failed; the batch returns after its visibility timeout', error);
      return;
    }
    // A message is deleted with the handle it was received with; one received again meanwhile stays.
    for (const [messageId, receiptHandle] of handles) {
      if (!failed.has(messageId) && messages.get(messageId)?.receiptHandle === receiptHandle) messages.delete(messageId);
    }
    save();
  }

  function poll(): void {
    while (consumer && running.size < options.concurrency) {
      const batch = receive();
      if (batch.length === 0) break;
      const task = handle(batch).finally(() => running.delete(task));
      running.add(task);
    }
  }

  return {
    endpoint,
    queueUrl,
    deadLetterQueueUrl,
    consume: (next) => {
      consumer = next;
      timer = setInterval(poll, options.pollIntervalMs ?? 50);
    },
    state: () => ({
      messages: messages.size,
      inFlight: [...messages.values()].filter((m) => m.receiptHandle && m.visibleAt > Date.now()).length,
      deadLetters: deadLetters.map((m) => ({ messageId: m.messageId, body: m.body, receiveCount: m.receiveCount })),
    }),
    stop: async () => {
      clearInterval(timer);
      consumer = undefined;
      await Promise.all(running);
      save();
      // An endpoint given by the caller may serve other queues; the caller stops it.
      if (!options.sqsEndpoint) await sqsEndpoint.stop();
    },
  };
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
