import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { Rule } from 'aws-cdk-lib/aws-events';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { WORKER_ENTRIES } from '../worker-entries.js';
import { scheduledFunction } from './scheduled-function.js';

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
 * markers), run every 5 minutes: with the sweep's 5-minute grace (shared/messaging/outbox/sweep.ts), such an item is forwarded
 * within about 10 minutes. A run that could not forward an item fails, which the function's error alarm reports.
 */
export class OutboxSweep extends Construct {
  readonly function: LambdaFunction;
  readonly rule: Rule;

  constructor(scope: Construct, id: string, props: OutboxSweepProps) {
    super(scope, id);
    ({ function: this.function, rule: this.rule } = scheduledFunction(this, {
      entry: WORKER_ENTRIES.outboxSweep,
      memorySize: 256,
      rate: Duration.minutes(5),
      description: 'Runs the outbox sweep',
      table: { table: props.table, keys: 'outboxSweep' },
      environment: props.environment,
      bundle: props.bundle,
    }));
    this.function.addEnvironment('QUEUE_URL', props.deliveryQueue.queueUrl);
    props.deliveryQueue.grantSendMessages(this.function);
  }
}
