import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction as LambdaTarget } from 'aws-cdk-lib/aws-events-targets';
import { Architecture, Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { bindTable } from './table-access.js';

const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const EXPIRY_SWEEP_ENTRY = 'functions/jobs/expiry-sweep.ts';
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
 * an EventBridge rule. It reads and writes the table (expiry items, licenses, counters, outbox).
 * A failed run is not retried by EventBridge: the next run, 5 minutes later, picks up what it left.
 */
export class ExpirySweep extends Construct {
  readonly function: LambdaFunction;
  readonly rule: Rule;

  constructor(scope: Construct, id: string, props: ExpirySweepProps) {
    super(scope, id);
    this.function = this.sweepFunction(props);
    bindTable(this.function, props.table, 'readWrite');
    this.rule = new Rule(this, 'Schedule', {
      description: 'Runs the license expiry sweep',
      schedule: Schedule.rate(EXPIRY_SWEEP_RATE),
      targets: [new LambdaTarget(this.function, { retryAttempts: 0 })],
    });
  }

  /** Bundled as the stack bundles its surfaces (ESM, Node 22, arm64, SDK included). */
  private sweepFunction(props: ExpirySweepProps): LambdaFunction {
    const common = {
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: 512,
      // Well below the rate, so one run normally ends before the next starts.
      timeout: Duration.minutes(2),
      environment: { ...props.environment },
      logGroup: new LogGroup(this, 'Logs', { retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY }),
    };
    if (!props.bundle) {
      return new LambdaFunction(this, 'Function', { ...common, handler: 'index.handler', code: Code.fromInline('exports.handler = async () => ({});') });
    }
    return new NodejsFunction(this, 'Function', {
      ...common,
      entry: join(PROJECT_ROOT, EXPIRY_SWEEP_ENTRY),
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
