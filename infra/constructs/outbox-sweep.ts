import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction as LambdaTarget } from 'aws-cdk-lib/aws-events-targets';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { WORKER_ENTRIES } from '../worker-entries.js';
import { serviceFunction } from './service-function.js';
import { bindTable } from './table-access.js';

/** With the sweep's 5-minute grace (shared/outbox/sweep.ts), an item the stream gave up on is forwarded within about 10 minutes. */
const OUTBOX_SWEEP_RATE = Duration.minutes(5);

export interface OutboxSweepProps {
  readonly table: ITable;
  /** Where forwarded events' deliveries go (the mail queue is granted by the stack, which holds it). */
  readonly deliveryQueue: IQueue;
  /** The environment every function shares (RUNTIME, …). */
  readonly environment: Record<string, string>;
  /** `false`: inline stand-in code, for synthesis in tests (as the stack's own functions). */
  readonly bundle: boolean;
}

/**
 * The outbox sweep: a function that forwards the outbox items the table's stream gave up on (found by their pending
 * markers), run every 5 minutes by an EventBridge rule. A run that could not forward an item fails, which the
 * function's error alarm reports; neither EventBridge nor Lambda retries it: the next run does.
 */
export class OutboxSweep extends Construct {
  readonly function: LambdaFunction;
  readonly rule: Rule;

  constructor(scope: Construct, id: string, props: OutboxSweepProps) {
    super(scope, id);
    this.function = serviceFunction(this, 'Function', {
      entry: WORKER_ENTRIES.outboxSweep,
      memorySize: 256,
      // Well below the rate, so one run normally ends before the next starts.
      timeout: Duration.minutes(2),
      environment: props.environment,
      bundle: props.bundle,
    });
    bindTable(this.function, props.table, { access: 'readWrite', keys: 'outboxSweep' });
    this.function.addEnvironment('QUEUE_URL', props.deliveryQueue.queueUrl);
    props.deliveryQueue.grantSendMessages(this.function);
    this.function.configureAsyncInvoke({ retryAttempts: 0 });
    this.rule = new Rule(this, 'Schedule', {
      description: 'Runs the outbox sweep',
      schedule: Schedule.rate(OUTBOX_SWEEP_RATE),
      targets: [new LambdaTarget(this.function, { retryAttempts: 0 })],
    });
  }
}
