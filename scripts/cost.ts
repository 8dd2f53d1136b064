/**
 * `npm run cost`: what a stage costs a month before any traffic, from the templates `cdk synth` would deploy, at list
 * prices (infra/cost-floor.ts): the standing charges of its resources (the fixed floor), what an idle stage still asks
 * for, and the custom metric series its functions can write. Takes the deployment's settings as `cdk` does, from
 * cdk.json's context and `-c key=value` (e.g. `npm run cost -- -c edgeRateLimit=2000 -c account=… -c region=…`).
 * Synthesizes without bundling: what is billed does not depend on the code.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, type Stack } from 'aws-cdk-lib';
import { buildStacks } from '../infra/app.js';
import { costTables } from '../infra/cost-floor.js';
import { readDeploySettings } from '../infra/settings.js';

const cdkJson = JSON.parse(readFileSync(new URL('../cdk.json', import.meta.url), 'utf8')) as { context: Record<string, unknown> };
const given: Record<string, string> = {};
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  const pair = args[i] === '-c' || args[i] === '--context' ? args[++i] : undefined;
  const [key, ...value] = (pair ?? '').split('=');
  if (!pair || !key || value.length === 0) {
    console.error(`npm run cost -- [-c key=value …]: ${args[i] ?? ''} is not a -c key=value`);
    process.exit(2);
  }
  given[key] = value.join('=');
}

const outdir = mkdtempSync(join(tmpdir(), 'licensing-cost-'));
try {
  const context = { ...cdkJson.context, ...given };
  const app = new App({ outdir, context });
  const stacks = Object.values(buildStacks(app, readDeploySettings((key) => context[key]), { bundle: false })).filter((stack): stack is NonNullable<typeof stack> => stack !== undefined);
  console.log(costTables(stacks as Stack[]));
} finally {
  rmSync(outdir, { recursive: true, force: true });
}
