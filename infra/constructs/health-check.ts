import { Duration, Lazy, Stack } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct, type IConstruct } from 'constructs';
import { RELEASE_PROBE_KEY } from '../../shared/platform/health/health-check.js';
import { WORKER_ENTRIES } from '../worker-entries.js';
import { scheduledFunction } from './scheduled-function.js';

/** How often it looks: each run is a few requests (docs/cost.md, "What an idle stage still asks for"). */
export const HEALTH_CHECK_RATE = Duration.minutes(5);
/** Failed or missing runs, of the last three, that raise the alarm: one failed probe may be a blip of one edge. */
const FAILED_RUNS_TO_ALARM = 2;

export interface HealthCheckProps {
  /** The environment every function shares (RUNTIME, …). */
  readonly environment: Record<string, string>;
  readonly bundle: boolean;
}

/**
 * The stack's health check (functions/jobs/health-check.ts): a job every 5 minutes that looks at what no metric of the
 * stack's region shows, the front door from the outside (CloudFront's metrics live in us-east-1) and the dead-letter
 * queues, and fails with a log line per problem. Its one alarm stands for every dead-letter queue of the stack
 * (`deadLetterAlarm` registers each here), where an alarm per queue cost $0.10 a month each (docs/cost.md). The
 * alarm also goes off when the check does not run at all.
 */
export class HealthCheck extends Construct {
  /** The stack's health check: made by the stack before anything that has a dead-letter queue. */
  static of(scope: IConstruct): HealthCheck {
    const found = Stack.of(scope).node.tryFindChild(HealthCheck.ID);
    if (!(found instanceof HealthCheck)) throw new Error('The stack makes its HealthCheck (infra/constructs/health-check.ts) before any dead-letter queue');
    return found;
  }
  private static readonly ID = 'HealthCheck';

  readonly function: LambdaFunction;
  readonly alarm: Alarm;
  /** Each watched dead-letter queue by the name its problems carry, with what its messages mean. */
  private readonly deadLetterQueues: Record<string, { url: string; about: string }> = {};

  constructor(scope: Stack, props: HealthCheckProps) {
    super(scope, HealthCheck.ID);
    ({ function: this.function } = scheduledFunction(this, {
      entry: WORKER_ENTRIES.healthCheck,
      memorySize: 256,
      rate: HEALTH_CHECK_RATE,
      timeout: Duration.minutes(1),
      description: 'Runs the health check: the front door from the outside, the dead-letter queues',
      environment: props.environment,
      bundle: props.bundle,
    }));
    this.function.addEnvironment('HEALTH_CHECK_DEAD_LETTER_QUEUES', Lazy.string({ produce: () => scope.toJsonString(this.deadLetterQueues) }));
    this.alarm = new Alarm(this, 'Alarm', {
      alarmName: `${scope.stackName}-health-check`,
      alarmDescription:
        'The health check failed or did not run in 2 of the last 3 runs (every 5 minutes): its log group says what is wrong, one "Health check" line a ' +
        'problem: a dead-letter queue holding messages (docs/deploy.md, "The alarms"), or the front door refusing /health or release files',
      metric: this.function.metricErrors({ period: HEALTH_CHECK_RATE, statistic: 'Sum' }),
      threshold: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 3,
      datapointsToAlarm: FAILED_RUNS_TO_ALARM,
      // Lambda writes Errors (0 when none) for each period with a run: a period without one is a run that did not happen.
      treatMissingData: TreatMissingData.BREACHING,
    });
  }

  /** Watches a dead-letter queue: a message in it fails the check, and this alarm is the queue's. */
  watchDeadLetters(queue: IQueue, props: { name: string; description: string }): Alarm {
    if (this.deadLetterQueues[props.name]) throw new Error(`Two dead-letter queues named ${props.name}`);
    this.deadLetterQueues[props.name] = { url: queue.queueUrl, about: props.description };
    this.function.addToRolePolicy(new PolicyStatement({ actions: ['sqs:GetQueueAttributes'], resources: [queue.queueArn] }));
    return this.alarm;
  }

  /**
   * Checks the front door: `/health` through it, and a URL presigned for the release bucket as the edge presigns them
   * (for a key that is never a file: S3 answers 404 once it has taken the signature, which listing lets it say).
   */
  watchFrontDoor(props: { url: string; releaseBucket: IBucket }): void {
    this.function.addEnvironment('RELEASE_FILES_URL', props.url);
    this.function.addEnvironment('BUCKET_NAME', props.releaseBucket.bucketName);
    this.function.addToRolePolicy(new PolicyStatement({ actions: ['s3:GetObject'], resources: [props.releaseBucket.arnForObjects(RELEASE_PROBE_KEY)] }));
    this.function.addToRolePolicy(new PolicyStatement({ actions: ['s3:ListBucket'], resources: [props.releaseBucket.bucketArn] }));
  }
}
