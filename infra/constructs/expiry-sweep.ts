import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { Rule } from 'aws-cdk-lib/aws-events';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { WORKER_ENTRIES } from '../worker-entries.js';
import { scheduledFunction } from './scheduled-function.js';

export interface ExpirySweepProps {
  readonly table: ITable;
  /** The environment every function shares (RUNTIME, …). */
  readonly environment: Record<string, string>;
  /** `false`: inline stand-in code, for synthesis in tests (as the stack's own functions). */
  readonly bundle: boolean;
}

/**
 * The license expiry sweep: a function that moves due licenses to `expired`, run every 5 minutes by
 * an EventBridge rule. It reads and writes the items of its key-access role (expiry items, licenses, counters, outbox).
 * A failed run is not retried: the next run, 5 minutes later, picks up what it left.
 */
export class ExpirySweep extends Construct {
  readonly function: LambdaFunction;
  readonly rule: Rule;

  constructor(scope: Construct, id: string, props: ExpirySweepProps) {
    super(scope, id);
    ({ function: this.function, rule: this.rule } = scheduledFunction(this, {
      entry: WORKER_ENTRIES.expirySweep,
      memorySize: 512,
      rate: Duration.minutes(5),
      description: 'Runs the license expiry sweep',
      table: { table: props.table, keys: 'expirySweep' },
      environment: props.environment,
      bundle: props.bundle,
    }));
  }
}
