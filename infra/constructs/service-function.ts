import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RemovalPolicy, type Duration } from 'aws-cdk-lib';
import { Architecture, Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';

/** The project root: handler entries are relative to it. */
const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * ESM bundles have no `require`; some CommonJS dependencies bundled into them still call it
 * (for Node built-ins). The alias avoids clashing with a bundled `createRequire` import.
 */
const ESM_REQUIRE_BANNER =
  "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);";

export interface ServiceFunctionProps {
  /** The handler module, relative to the project root (exports `handler`). */
  readonly entry: string;
  readonly memorySize: number;
  readonly timeout: Duration;
  readonly environment: Record<string, string>;
  /**
   * `false` replaces the bundled handler with an inline stand-in so that stack assertion tests
   * synthesize without running esbuild. Every other property of the function is unchanged.
   */
  readonly bundle: boolean;
}

/**
 * Every function of the service is built here alike: Node 22 on arm64, an ESM bundle that includes
 * the AWS SDK (the deployed code runs the SDK versions the tests ran, not whichever the runtime ships
 * this month), source maps, and a log group of its own that keeps a month and goes with the stack.
 */
export function serviceFunction(scope: Construct, id: string, props: ServiceFunctionProps): LambdaFunction {
  const entry = join(PROJECT_ROOT, props.entry);
  if (!existsSync(entry)) throw new Error(`Handler entry ${props.entry} of function ${id} not found`);
  const common = {
    runtime: Runtime.NODEJS_22_X,
    architecture: Architecture.ARM_64,
    memorySize: props.memorySize,
    timeout: props.timeout,
    environment: { ...props.environment },
    logGroup: new LogGroup(scope, `${id}Logs`, { retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY }),
  };
  if (!props.bundle) {
    return new LambdaFunction(scope, id, { ...common, handler: 'index.handler', code: Code.fromInline('exports.handler = async () => ({ statusCode: 503 });') });
  }
  return new NodejsFunction(scope, id, {
    ...common,
    entry,
    handler: 'handler',
    projectRoot: PROJECT_ROOT,
    depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
    bundling: {
      format: OutputFormat.ESM,
      target: 'node22',
      mainFields: ['module', 'main'],
      banner: ESM_REQUIRE_BANNER,
      minify: true,
      sourceMap: true,
      externalModules: [],
    },
  });
}
