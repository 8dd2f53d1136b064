import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { Architecture, Code, FilterCriteria, Function as LambdaFunction, Runtime, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { OUTBOX_INSERT_FILTER } from '../../functions/webhook-fanout/outbox-filter.js';
import { DELIVERY_QUEUE_SETTINGS } from '../../shared/webhooks/delivery-queue.js';
import { bindTable } from './table-access.js';

const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The whole retry schedule is about 33 h at most; messages are kept well beyond it. */
const MESSAGE_RETENTION = Duration.days(4);
/** Stream batches that keep failing are retried this often, then recorded in the dead-letter queue. */
const FAN_OUT_RETRY_ATTEMPTS = 10;

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
 */
export class WebhookDelivery extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  readonly dispatcher: LambdaFunction;
  readonly fanOut: LambdaFunction;
  readonly deadLetterAlarm: Alarm;

  constructor(scope: Construct, id: string, props: WebhookDeliveryProps) {
    super(scope, id);
    const { table } = props;

    this.deadLetterQueue = new Queue(this, 'DeadLetterQueue', {
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    this.queue = new Queue(this, 'Queue', {
      visibilityTimeout: Duration.seconds(DELIVERY_QUEUE_SETTINGS.visibilityTimeoutSeconds),
      retentionPeriod: MESSAGE_RETENTION,
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: DELIVERY_QUEUE_SETTINGS.maxReceiveCount },
    });

    this.dispatcher = this.handlerFunction('Dispatcher', 'functions/dispatcher/handler.ts', props, DELIVERY_QUEUE_SETTINGS.dispatcherTimeoutSeconds);
    bindTable(this.dispatcher, table, 'readWrite');
    this.dispatcher.addEnvironment('QUEUE_URL', this.queue.queueUrl);
    this.dispatcher.addEnvironment('DEAD_LETTER_QUEUE_URL', this.deadLetterQueue.queueUrl);
    // Receive, delete and change visibility (the retry delay) on the queue; send to the dead-letter queue.
    this.queue.grantConsumeMessages(this.dispatcher);
    this.deadLetterQueue.grantSendMessages(this.dispatcher);
    this.dispatcher.addEventSource(
      new SqsEventSource(this.queue, { batchSize: DELIVERY_QUEUE_SETTINGS.batchSize, reportBatchItemFailures: true }),
    );

    this.fanOut = this.handlerFunction('FanOut', 'functions/webhook-fanout/handler.ts', props, 30);
    bindTable(this.fanOut, table, 'readWrite');
    this.fanOut.addEnvironment('QUEUE_URL', this.queue.queueUrl);
    this.queue.grantSendMessages(this.fanOut);
    this.fanOut.addEventSource(
      new DynamoEventSource(table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: 100,
        reportBatchItemFailures: true,
        retryAttempts: FAN_OUT_RETRY_ATTEMPTS,
        onFailure: new SqsDlq(this.deadLetterQueue),
        filters: [FilterCriteria.filter(OUTBOX_INSERT_FILTER)],
      }),
    );

    props.management.addEnvironment('QUEUE_URL', this.queue.queueUrl);
    this.queue.grantSendMessages(props.management);

    this.deadLetterAlarm = new Alarm(this, 'DeadLetterAlarm', {
      alarmDescription: 'Webhook deliveries gave up (or a stream batch could not be fanned out): see the dead-letter queue',
      metric: this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
  }

  /** A function bundled as the stack bundles its surfaces (ESM, Node 22, arm64, SDK included). */
  private handlerFunction(id: string, entry: string, props: WebhookDeliveryProps, timeoutSeconds: number): LambdaFunction {
    const common = {
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: 256,
      timeout: Duration.seconds(timeoutSeconds),
      environment: { ...props.environment },
      logGroup: new LogGroup(this, `${id}Logs`, { retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY }),
    };
    if (!props.bundle) {
      return new LambdaFunction(this, id, { ...common, handler: 'index.handler', code: Code.fromInline('exports.handler = async () => ({});') });
    }
    return new NodejsFunction(this, id, {
      ...common,
      entry: join(PROJECT_ROOT, entry),
      handler: 'handler',
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
      bundling: {
        format: OutputFormat.ESM,
        target: 'node22',
        mainFields: ['module', 'main'],
        banner: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
        minify: true,
        sourceMap: true,
        externalModules: [],
      },
    });
  }
}
