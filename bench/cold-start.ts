/**
 * Cold-start benchmark: `npx tsx bench/cold-start.ts`. Synthesizes the stack with bundling, exactly as
 * `cdk deploy` builds it, then for every function prints its bundle's size and the median time of five
 * fresh Node processes importing it (the handler module creates its clients when it loads, as in Lambda's
 * init phase), against the targets: edge and public ≤ 300 KB and ≤ 100 ms, the others ≤ 600 KB.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const IMPORTS = 5;
const HOT_PATH = /^(Edge|Public)Function/;
const TARGETS = { hot: { bytes: 300 * 1024, ms: 100 }, other: { bytes: 600 * 1024, ms: Infinity } };

type LambdaResource = { Type: string; Properties: { Environment?: { Variables?: Record<string, unknown> } }; Metadata?: Record<string, string> };

/** Values standing in for the deployment's references (table name, queue URLs…), as Lambda would set them. */
function environmentOf(resource: LambdaResource): Record<string, string> {
  const variables = resource.Properties.Environment?.Variables ?? {};
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'bench',
    AWS_SECRET_ACCESS_KEY: 'bench',
    AWS_SESSION_TOKEN: 'bench',
    AWS_LAMBDA_FUNCTION_NAME: 'bench',
    // Lambda runs Node 22, where the SDK has no notice to print about older versions.
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
  for (const [name, value] of Object.entries(variables)) {
    env[name] = typeof value === 'string' ? value : /_URL$/.test(name) ? 'https://sqs.us-east-1.amazonaws.com/000000000000/bench' : `bench-${name.toLowerCase()}`;
  }
  return env;
}

function importMs(file: string, env: Record<string, string>): number {
  const script = `const t = performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)}); console.log(performance.now() - t);`;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`importing ${file} failed:\n${result.stderr}`);
  return Number(result.stdout.trim().split('\n').pop());
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const out = mkdtempSync(join(tmpdir(), 'cold-start-'));
try {
  // esbuild's own report of each bundle goes to stderr: kept out of the table, shown only if synth fails.
  execFileSync('npx', ['cdk', 'synth', '-q', '--output', out], { stdio: ['ignore', 'ignore', 'pipe'] });
  const templates = readdirSync(out).filter((f) => f.endsWith('.template.json'));
  let missed = 0;
  console.log(`${'function'.padEnd(34)} ${'bundle'.padStart(10)} ${'target'.padStart(8)} ${'init (median of 5)'.padStart(20)} ${'target'.padStart(8)}`);
  for (const template of templates) {
    const resources = JSON.parse(readFileSync(join(out, template), 'utf8')).Resources as Record<string, LambdaResource>;
    for (const [logicalId, resource] of Object.entries(resources)) {
      const assetPath = resource.Metadata?.['aws:asset:path'];
      if (resource.Type !== 'AWS::Lambda::Function' || !assetPath) continue;
      const dir = join(out, assetPath);
      const entry = readdirSync(dir).find((f) => /^index\.m?js$/.test(f));
      if (!entry) continue; // not one of ours (a CDK-provided custom resource handler)
      const file = join(dir, entry);
      const bytes = statSync(file).size;
      const env = environmentOf(resource);
      const ms = median(Array.from({ length: IMPORTS }, () => importMs(file, env)));
      const target = HOT_PATH.test(logicalId) ? TARGETS.hot : TARGETS.other;
      const ok = bytes <= target.bytes && ms <= target.ms;
      if (!ok) missed++;
      console.log(
        `${logicalId.replace(/[0-9A-F]{8}$/, '').padEnd(34)} ${`${(bytes / 1024).toFixed(0)} KB`.padStart(10)} ${`${target.bytes / 1024} KB`.padStart(8)} ` +
          `${`${ms.toFixed(0)} ms`.padStart(20)} ${(Number.isFinite(target.ms) ? `${target.ms} ms` : '-').padStart(8)}  ${ok ? 'ok' : 'MISSED'}`,
      );
    }
  }
  if (missed) process.exitCode = 1;
} finally {
  rmSync(out, { recursive: true, force: true });
}
