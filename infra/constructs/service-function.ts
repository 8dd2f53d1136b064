import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { RemovalPolicy, type Duration } from 'aws-cdk-lib';
import { Architecture, Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { functionCode, PROJECT_ROOT } from './bundling.js';

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
  /**
   * Files copied beside the bundle, into `directory` of the asset (the handler reads them at run time): each
   * `name` from `source`, a path relative to the project root.
   */
  readonly assets?: { readonly directory: string; readonly files: Readonly<Record<string, string>> };
}

/**
 * Every function of the service is built here alike: Node 22 on arm64, the bundle of `functionCode`
 * (source maps only with `-c sourceMaps=true`), and a log group of its own that keeps a month and goes
 * with the stack.
 */
export function serviceFunction(scope: Construct, id: string, props: ServiceFunctionProps): LambdaFunction {
  const entry = join(PROJECT_ROOT, props.entry);
  if (!existsSync(entry)) throw new Error(`Handler entry ${props.entry} of function ${id} not found`);
  const sourceMap = String(scope.node.tryGetContext('sourceMaps')) === 'true';
  const common = {
    runtime: Runtime.NODEJS_22_X,
    architecture: Architecture.ARM_64,
    memorySize: props.memorySize,
    timeout: props.timeout,
    environment: { ...props.environment, ...(sourceMap ? { NODE_OPTIONS: '--enable-source-maps' } : {}) },
    logGroup: new LogGroup(scope, `${id}Logs`, { retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY }),
  };
  if (!props.bundle) {
    return new LambdaFunction(scope, id, { ...common, handler: 'index.handler', code: Code.fromInline('exports.handler = async () => ({ statusCode: 503 });') });
  }
  for (const source of Object.values(props.assets?.files ?? {})) {
    if (!existsSync(join(PROJECT_ROOT, source))) throw new Error(`Asset ${source} not found (npm install, and npm run openapi for docs/openapi.json)`);
  }
  return new LambdaFunction(scope, id, { ...common, handler: 'index.handler', code: functionCode(props.entry, { sourceMap, assets: props.assets }) });
}
