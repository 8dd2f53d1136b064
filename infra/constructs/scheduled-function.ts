import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction as LambdaTarget } from 'aws-cdk-lib/aws-events-targets';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import type { KeyAccessRole } from '../../shared/platform/data/key-access.js';
import { serviceFunction } from './service-function.js';
import { bindTable } from './table-access.js';

export interface ScheduledFunctionProps {
  /** The handler module, relative to the project root (`WORKER_ENTRIES`). */
  readonly entry: string;
  readonly memorySize: number;
  /** How often it runs. */
  readonly rate: Duration;
  /** What the rule says it runs. */
  readonly description: string;
  readonly table: ITable;
  /** Its key-access role: it reads and writes the items of that role. */
  readonly keys: KeyAccessRole;
  /** The environment every function shares (RUNTIME, …). */
  readonly environment: Record<string, string>;
  /** `false`: inline stand-in code, for synthesis in tests (as the stack's own functions). */
  readonly bundle: boolean;
}

/**
 * A job: a function (`Function` in `scope`) run by an EventBridge rule (`Schedule`) at a fixed rate, with the table of
 * its role. A failed run is retried by neither EventBridge nor Lambda: the next run is the retry, so jobs are written to
 * pick up what an earlier run left. The timeout stays well below the rate, so one run normally ends before the next.
 */
export function scheduledFunction(scope: Construct, props: ScheduledFunctionProps): { function: LambdaFunction; rule: Rule } {
  const fn = serviceFunction(scope, 'Function', {
    entry: props.entry,
    memorySize: props.memorySize,
    timeout: Duration.minutes(2),
    environment: props.environment,
    bundle: props.bundle,
  });
  bindTable(fn, props.table, { access: 'readWrite', keys: props.keys });
  fn.configureAsyncInvoke({ retryAttempts: 0 });
  const rule = new Rule(scope, 'Schedule', {
    description: props.description,
    schedule: Schedule.rate(props.rate),
    targets: [new LambdaTarget(fn, { retryAttempts: 0 })],
  });
  return { function: fn, rule };
}
