import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { Rule } from 'aws-cdk-lib/aws-events';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { WORKER_ENTRIES } from '../worker-entries.js';
import { scheduledFunction } from './scheduled-function.js';

export interface LeaseExpiryProps {
  readonly table: ITable;
  /** The environment every function shares (RUNTIME, …). */
  readonly environment: Record<string, string>;
  /** `false`: inline stand-in code, for synthesis in tests (as the stack's own functions). */
  readonly bundle: boolean;
}

/**
 * The lease expiry job: sends `lease.expired` for floating leases that ended without a release, every minute. A
 * scheduled query rather than DynamoDB TTL and its stream: TTL deletes items up to days late, and the event is
 * promised within minutes. It frees no seat (an expired lease's seat is free at its expiry time); it only tells.
 */
export class LeaseExpiry extends Construct {
  readonly function: LambdaFunction;
  readonly rule: Rule;

  constructor(scope: Construct, id: string, props: LeaseExpiryProps) {
    super(scope, id);
    ({ function: this.function, rule: this.rule } = scheduledFunction(this, {
      entry: WORKER_ENTRIES.leaseExpiry,
      memorySize: 256,
      rate: Duration.minutes(1),
      // Below the rate: a minute's expired leases are a few queries and writes.
      timeout: Duration.seconds(50),
      description: 'Sends lease.expired for floating leases that ended without a release',
      table: { table: props.table, keys: 'leaseExpiry' },
      environment: props.environment,
      bundle: props.bundle,
    }));
  }
}
