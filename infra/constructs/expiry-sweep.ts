import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction as LambdaTarget } from 'aws-cdk-lib/aws-events-targets';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { WORKER_ENTRIES } from '../worker-entries.js';
import { serviceFunction } from './service-function.js';
import { bindTable } from './table-access.js';

const EXPIRY_SWEEP_RATE = Duration.minutes(5);

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
 * A failed run is not retried by EventBridge: the next run, 5 minutes later, picks up what it left.
 */
export class ExpirySweep extends Construct {
  readonly function: LambdaFunction;
  readonly rule: Rule;

  constructor(scope: Construct, id: string, props: ExpirySweepProps) {
    super(scope, id);
    this.function = serviceFunction(this, 'Function', {
      entry: WORKER_ENTRIES.expirySweep,
      memorySize: 512,
      // Well below the rate, so one run normally ends before the next starts.
      timeout: Duration.minutes(2),
      environment: props.environment,
      bundle: props.bundle,
    });
    bindTable(this.function, props.table, { access: 'readWrite', keys: 'expirySweep' });
    this.rule = new Rule(this, 'Schedule', {
      description: 'Runs the license expiry sweep',
      schedule: Schedule.rate(EXPIRY_SWEEP_RATE),
      targets: [new LambdaTarget(this.function, { retryAttempts: 0 })],
    });
  }
}
