import { Duration } from 'aws-cdk-lib';
import type { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { USAGE_QUEUE_SETTINGS } from '../../shared/insights/analytics/usage-queue.js';
import { WORKER_ENTRIES } from '../worker-entries.js';
import { deadLetterAlarm, queueWithDeadLetters } from './queue-with-dead-letters.js';
import { serviceFunction } from './service-function.js';
import { bindTable } from './table-access.js';

export interface UsageEventsProps {
  readonly table: Table;
  /** The environment every function shares (RUNTIME, …). */
  readonly environment: Record<string, string>;
  /** `false`: inline stand-in code, for synthesis in tests (as the stack's own functions). */
  readonly bundle: boolean;
}

/**
 * Usage events off the request path: the public function queues each accepted event (and the edge and public
 * functions each install's first check of a day), and the writer stores and counts them in batches of up to 100,
 * gathered for a few seconds. A batch the table keeps refusing moves to a dead-letter queue that raises an alarm.
 */
export class UsageEvents extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  readonly writer: LambdaFunction;
  readonly deadLetterAlarm: Alarm;

  constructor(scope: Construct, id: string, props: UsageEventsProps) {
    super(scope, id);
    ({ queue: this.queue, deadLetterQueue: this.deadLetterQueue } = queueWithDeadLetters(this, {
      visibilityTimeout: Duration.seconds(USAGE_QUEUE_SETTINGS.visibilityTimeoutSeconds),
      retentionPeriod: Duration.days(4),
      maxReceiveCount: USAGE_QUEUE_SETTINGS.maxReceiveCount,
    }));

    this.writer = serviceFunction(this, 'Writer', {
      entry: WORKER_ENTRIES.usageEventWriter,
      memorySize: 512,
      timeout: Duration.seconds(USAGE_QUEUE_SETTINGS.writerTimeoutSeconds),
      environment: props.environment,
      bundle: props.bundle,
    });
    bindTable(this.writer, props.table, { access: 'readWrite', keys: 'usageWriter' });
    this.writer.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: USAGE_QUEUE_SETTINGS.batchSize,
        maxBatchingWindow: Duration.seconds(USAGE_QUEUE_SETTINGS.maxBatchingWindowSeconds),
        reportBatchItemFailures: true,
        maxConcurrency: USAGE_QUEUE_SETTINGS.maxConcurrency,
      }),
    );

    this.deadLetterAlarm = deadLetterAlarm(this, this.deadLetterQueue, {
      name: 'usage-event-dead-letters',
      description: 'Usage events gave up after the table refused them on every receive: see the usage event dead-letter queue and the writer\'s log, then redrive',
    });
  }

  /** Lets `fn` queue usage events and installs seen, with the queue's address in its environment. */
  grantSend(fn: LambdaFunction): void {
    fn.addEnvironment('USAGE_QUEUE_URL', this.queue.queueUrl);
    this.queue.grantSendMessages(fn);
  }
}
