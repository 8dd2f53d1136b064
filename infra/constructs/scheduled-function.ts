import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction as LambdaTarget } from 'aws-cdk-lib/aws-events-targets';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import type { KeyAccessRole } from '../../shared/platform/data/key-access.js';
import { serviceFunction } from './service-function.js';
import { bindTable } from './table-access.js';

/**
 * How late a run may start: Lambda holds an event it cannot run yet (the account's concurrency all taken) in its
 * queue, and drops it after this long (the shortest Lambda allows): the next run does its work.
 */
export const SCHEDULED_EVENT_MAX_AGE = Duration.minutes(1);

export interface ScheduledFunctionProps {
  /** The handler module, relative to the project root (`WORKER_ENTRIES`). */
  readonly entry: string;
  readonly memorySize: number;
  /** How often it runs. */
  readonly rate: Duration;
  /** How long a run may take. @default 2 minutes */
  readonly timeout?: Duration;
  /** What the rule says it runs. */
  readonly description: string;
  /** Its table and key-access role (it reads and writes the items of that role); absent: no table. */
  readonly table?: { readonly table: ITable; readonly keys: KeyAccessRole };
  /** The environment every function shares (RUNTIME, …). */
  readonly environment: Record<string, string>;
  /** `false`: inline stand-in code, for synthesis in tests (as the stack's own functions). */
  readonly bundle: boolean;
}

/**
 * Runs of a job that can be under way at once: one starts at most `SCHEDULED_EVENT_MAX_AGE` late and ends within its
 * timeout, so no more than this many overlap, however Lambda throttles (docs/deploy.md, "Go-live checklist").
 */
export function concurrentRuns(rate: Duration, timeout: Duration): number {
  return Math.ceil((SCHEDULED_EVENT_MAX_AGE.toSeconds() + timeout.toSeconds()) / rate.toSeconds());
}

/**
 * A job: a function (`Function` in `scope`) run by an EventBridge rule (`Schedule`) at a fixed rate. A failed run is
 * retried by neither EventBridge nor Lambda: the next run is the retry, so jobs are written to pick up what an earlier
 * run left. A run starts at most a minute late and its timeout stays below the rate, which caps the runs under way at
 * once (`concurrentRuns`) without reserving concurrency (which a new account's 10 cannot spare: Lambda keeps 10 free).
 */
export function scheduledFunction(scope: Construct, props: ScheduledFunctionProps): { function: LambdaFunction; rule: Rule } {
  const timeout = props.timeout ?? Duration.minutes(2);
  if (timeout.toSeconds() >= props.rate.toSeconds()) throw new Error(`A job's timeout (${timeout.toHumanString()}) must be below its rate (${props.rate.toHumanString()})`);
  const fn = serviceFunction(scope, 'Function', {
    entry: props.entry,
    memorySize: props.memorySize,
    timeout,
    environment: props.environment,
    bundle: props.bundle,
  });
  if (props.table) bindTable(fn, props.table.table, { access: 'readWrite', keys: props.table.keys });
  fn.configureAsyncInvoke({ retryAttempts: 0, maxEventAge: SCHEDULED_EVENT_MAX_AGE });
  const rule = new Rule(scope, 'Schedule', {
    description: props.description,
    schedule: Schedule.rate(props.rate),
    targets: [new LambdaTarget(fn, { retryAttempts: 0, maxEventAge: SCHEDULED_EVENT_MAX_AGE })],
  });
  return { function: fn, rule };
}
