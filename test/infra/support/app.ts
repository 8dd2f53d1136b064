import { readFileSync } from 'node:fs';
import { App } from 'aws-cdk-lib';

/** The feature flags (and any other context) of `cdk.json`, which `cdk synth` applies and a bare `new App()` does not. */
const CDK_JSON_CONTEXT = (JSON.parse(readFileSync(new URL('../../../cdk.json', import.meta.url), 'utf8')) as { context: Record<string, unknown> }).context;

/** An app as the CDK CLI builds it from `cdk.json`, synthesizing into `outdir`. */
export function cdkApp(outdir: string, context: Record<string, unknown> = {}): App {
  return new App({ outdir, context: { ...CDK_JSON_CONTEXT, ...context } });
}
