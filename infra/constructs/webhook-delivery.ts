import { Duration } from 'aws-cdk-lib';
import type { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { FilterCriteria, Function as LambdaFunction, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { FAN_OUT_FILTERS } from '../../functions/outbox-fanout/outbox-filter.js';
import { OUTBOX_STREAM_SETTINGS } from '../../functions/outbox-fanout/stream-settings.js';
import { DELIVERY_QUEUE_SETTINGS } from '../../shared/messaging/webhooks/delivery-queue.js';
import { WORKER_ENTRIES } from '../worker-entries.js';
import { OutboxSweep } from './outbox-sweep.js';
import { deadLetterAlarm, deadLetterQueue, queueWithDeadLetters } from './queue-with-dead-letters.js';
import { serviceFunction } from './service-function.js';
import { bindTable } from './table-access.js';

/** The whole retry schedule is about 33 h at most; messages are kept well beyond it. */
const MESSAGE_RETENTION = Duration.days(4);

export interface WebhookDeliveryProps {
  readonly table: Table;
  /** Sends redeliveries to the queue. */
  readonly management: LambdaFunction;
  /** The environment every function shares (RUNTIME, PUBLIC_BASE_URL, …). */
  readonly environment: Record<string, string>;
  /** `false`: inline stand-in code, for synthesis in tests (as the stack's own functions). */
  readonly bundle: boolean;
}

/**
 * Outbound webhooks that never lose an event: the table's stream feeds outbox inserts to the fan-out,
 * which queues one message per delivery; the dispatcher sends them, retrying through the queue's
 * visibility timeout, and moves the ones that gave up to a dead-letter queue that raises an alarm.
 * The stream gives a failing record up after a few retries, or once it is an hour old, so that it does not hold up
 * the records behind it for long; their metadata goes to the stream's own dead-letter queue, which raises an alarm,
 * and the outbox sweep forwards the items themselves, still pending, within minutes.
 */
export class WebhookDelivery extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  readonly dispatcher: LambdaFunction;
  readonly fanOut: LambdaFunction;
  readonly deadLetterAlarm: Alarm;
  /** Where the stream records the fan-out gave up on are described (metadata only: the sweep forwards their items). */
  readonly streamDeadLetterQueue: Queue;
  readonly streamDeadLetterAlarm: Alarm;
  /** Forwards what the stream gave up on; the stack grants it the mail queue. */
  readonly sweep: OutboxSweep;

  constructor(scope: Construct, id: string, props: WebhookDeliveryProps) {
    super(scope, id);
    const { table } = props;
    const functionProps = { memorySize: 256, environment: props.environment, bundle: props.bundle };

    ({ queue: this.queue, deadLetterQueue: this.deadLetterQueue } = queueWithDeadLetters(this, {
      visibilityTimeout: Duration.seconds(DELIVERY_QUEUE_SETTINGS.visibilityTimeoutSeconds),
      retentionPeriod: MESSAGE_RETENTION,
      maxReceiveCount: DELIVERY_QUEUE_SETTINGS.maxReceiveCount,
    }));

    this.dispatcher = serviceFunction(this, 'Dispatcher', {
      ...functionProps,
      entry: WORKER_ENTRIES.webhookDispatcher,
      timeout: Duration.seconds(DELIVERY_QUEUE_SETTINGS.dispatcherTimeoutSeconds),
    });
    bindTable(this.dispatcher, table, { access: 'readWrite', keys: 'webhookWorker' });
    this.dispatcher.addEnvironment('QUEUE_URL', this.queue.queueUrl);
    this.dispatcher.addEnvironment('DEAD_LETTER_QUEUE_URL', this.deadLetterQueue.queueUrl);
    // Receive, delete and change visibility (the retry delay) on the queue; send to the dead-letter queue.
    this.queue.grantConsumeMessages(this.dispatcher);
    this.deadLetterQueue.grantSendMessages(this.dispatcher);
    this.dispatcher.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: DELIVERY_QUEUE_SETTINGS.batchSize,
        reportBatchItemFailures: true,
        maxConcurrency: DELIVERY_QUEUE_SETTINGS.maxConcurrency,
      }),
    );

    this.fanOut = serviceFunction(this, 'FanOut', { ...functionProps, entry: WORKER_ENTRIES.outboxFanOut, timeout: Duration.seconds(30) });
    bindTable(this.fanOut, table, { access: 'readWrite', keys: 'webhookWorker' });
    this.fanOut.addEnvironment('QUEUE_URL', this.queue.queueUrl);
    this.queue.grantSendMessages(this.fanOut);
    const stream = new Construct(this, 'Stream');
    this.streamDeadLetterQueue = deadLetterQueue(stream);
    NagSuppressions.addResourceSuppressions(this.streamDeadLetterQueue, [
      { id: 'AwsSolutions-SQS3', reason: "The stream event source's on-failure destination: a dead-letter queue itself, which SQS does not know as one" },
    ]);
    this.fanOut.addEventSource(
      new DynamoEventSource(table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: OUTBOX_STREAM_SETTINGS.batchSize,
        reportBatchItemFailures: true,
        bisectBatchOnError: OUTBOX_STREAM_SETTINGS.bisectBatchOnError,
        retryAttempts: OUTBOX_STREAM_SETTINGS.retryAttempts,
        maxRecordAge: Duration.seconds(OUTBOX_STREAM_SETTINGS.maxRecordAgeSeconds),
        onFailure: new SqsDlq(this.streamDeadLetterQueue),
        filters: FAN_OUT_FILTERS.map((filter) => FilterCriteria.filter(filter)),
        // One batch at a time per shard of the stream, in order: the fan-out runs at most once per shard (a table of
        // this size has one to a few); DynamoDB streams have no cap of their own beside this one.
        parallelizationFactor: 1,
      }),
    );
    NagSuppressions.addResourceSuppressions(
      this.fanOut,
      [{ id: 'AwsSolutions-IAM5', reason: 'dynamodb:ListStreams, which a stream consumer needs, has no resource-level permissions', appliesTo: ['Resource::*'] }],
      true,
    );

    props.management.addEnvironment('QUEUE_URL', this.queue.queueUrl);
    this.queue.grantSendMessages(props.management);

    // Named after the stack like the other alarms (infra/constructs/alarms.ts); the stack sends them to the alarm topic.
    this.deadLetterAlarm = deadLetterAlarm(this, this.deadLetterQueue, {
      name: 'webhook-dead-letters',
      description: 'Webhook deliveries gave up: see the dead-letter queue',
    });
    this.streamDeadLetterAlarm = deadLetterAlarm(stream, this.streamDeadLetterQueue, {
      name: 'outbox-stream-dead-letters',
      description:
        'The outbox fan-out gave up stream records (retries or age): the outbox sweep forwards their items within minutes. See the fan-out\'s log for why, then docs/architecture.md (The outbox)',
    });

    this.sweep = new OutboxSweep(this, 'OutboxSweep', { table, deliveryQueue: this.queue, environment: props.environment, bundle: props.bundle });
  }
}
