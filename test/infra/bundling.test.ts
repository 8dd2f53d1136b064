import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { cdkApp } from './support/app.js';
import { CHUNK_DIRECTORY, ESM_REQUIRE_BANNER, filesLoadedAtInit, PROJECT_ROOT } from '../../infra/constructs/bundling.js';
import { compileCommonJsEagerly } from '../../infra/constructs/eager-commonjs.mjs';
import { readsRequire } from '../../infra/constructs/require-banner.mjs';
import { LicensingStack } from '../../infra/stack.js';

const SDK_PROBE = fileURLToPath(new URL('./support/sdk-probe.mjs', import.meta.url));

type FunctionResource = { Properties: { Handler: string; Code: { S3Key: string }; Environment: { Variables: Record<string, string> } } };

// The stack as `cdk deploy` builds it: every function bundled by esbuild and the dashboard built by Vite, which
// makes these the slowest stack tests (a file of their own, so that they run beside the others).
const outRoot = mkdtempSync(join(tmpdir(), 'licensing-bundling-test-'));
afterAll(() => rmSync(outRoot, { recursive: true, force: true }));

/** A stack synthesized with bundling: each surface's function and the directory of its bundle. */
function bundledStack(context: Record<string, string> = {}) {
  const app = cdkApp(mkdtempSync(join(outRoot, 'app-')), context);
  const stack = new LicensingStack(app, 'LicensingService');
  const resources = Template.fromStack(stack).toJSON().Resources as Record<string, FunctionResource>;
  return (surface: keyof LicensingStack['functions']) => {
    const fn = resources[stack.getLogicalId(stack.functions[surface].node.defaultChild as CfnElement)]!;
    return { fn, assetDir: join(app.outdir, `asset.${fn.Properties.Code.S3Key.replace(/\.zip$/, '')}`) };
  };
}

describe('bundling', () => {
  const bundled = bundledStack();

  it('builds an ESM bundle with a require banner where a file reads require, no source map, and no credential source but the environment', () => {
    const { fn, assetDir } = bundled('management');
    expect(fn.Properties.Handler).toBe('index.handler');
    expect(readdirSync(assetDir).sort()).toEqual(['chunks', 'index.mjs']);
    expect(fn.Properties.Environment.Variables.NODE_OPTIONS).toBeUndefined();
    const code = readFileSync(join(assetDir, 'index.mjs'), 'utf8');
    expect(code).toMatch(/export\s*\{[^}]*\bhandler\b/);
    // The SDK's default chain would bring its SSO source (and the others) along.
    expect(code).not.toContain('sso_start_url');
    // The banner (for CommonJS code that requires Node built-ins: ElectroDB's, in the model chunk) only where read.
    const files = [join(assetDir, 'index.mjs'), ...readdirSync(join(assetDir, CHUNK_DIRECTORY)).map((name) => join(assetDir, CHUNK_DIRECTORY, name))];
    const withBanner = files.filter((file) => readFileSync(file, 'utf8').startsWith(ESM_REQUIRE_BANNER));
    expect(withBanner.some((file) => readFileSync(file, 'utf8').includes('electrodb.dev'))).toBe(true);
    expect(withBanner.length).toBeLessThan(files.length / 2);
    for (const file of files) expect(readsRequire(readFileSync(file, 'utf8').replace(ESM_REQUIRE_BANNER, ''))).toBe(withBanner.includes(file));
  }, 120_000);

  it('loads each bundle as Lambda does: its handler is a function once the module has run', () => {
    for (const surface of ['edge', 'management'] as const) {
      const { assetDir } = bundled(surface);
      const env = { PATH: process.env.PATH, RUNTIME: 'aws', AWS_REGION: 'us-east-1', TABLE_NAME: 'table', PUBLIC_BASE_URL: 'https://licensing.example.com', DASHBOARD_URL: 'https://dashboard.example.com' };
      const script = `const { handler } = await import('./index.mjs'); console.log(typeof handler);`;
      expect(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: assetDir, env, encoding: 'utf8' }).trim()).toBe('function');
    }
  }, 120_000);

  it('splits what only some requests need into chunks that the first request needing them loads', async () => {
    const publicDir = bundled('public').assetDir;
    const atInit = filesLoadedAtInit(join(publicDir, 'index.mjs'));
    const code = (file: string) => readFileSync(file, 'utf8');
    // Stripe's own code (its API host is a string of it) and the KMS client are not parsed at a cold start.
    const chunks = readdirSync(join(publicDir, CHUNK_DIRECTORY)).map((name) => join(publicDir, CHUNK_DIRECTORY, name));
    const stripeChunk = chunks.find((file) => code(file).includes('api.stripe.com'));
    expect(stripeChunk).toBeDefined();
    expect(chunks.filter((file) => code(file).includes('com.amazonaws.kms#'))).toHaveLength(1);
    for (const file of atInit) expect(code(file)).not.toMatch(/api\.stripe\.com|com\.amazonaws\.kms#/);
    // The chunk loads as `import('stripe')` gives it to shared/billing/payments/stripe-client.ts, from the bundle's directory.
    const probe = join(publicDir, 'probe.mjs');
    writeFileSync(probe, `const { default: Stripe } = await import('./${CHUNK_DIRECTORY}/${basename(stripeChunk!)}'); console.log(typeof new Stripe('sk_test_probe').checkout.sessions.create);`);
    expect(execFileSync(process.execPath, [probe], { encoding: 'utf8' }).trim()).toBe('function');
    // A function that never imports stripe ships none of it.
    const edgeDir = bundled('edge').assetDir;
    expect(readdirSync(join(edgeDir, CHUNK_DIRECTORY)).some((name) => code(join(edgeDir, CHUNK_DIRECTORY, name)).includes('api.stripe.com'))).toBe(false);
  }, 120_000);

  it('keeps the data model and the document client out of the edge cold start, and its ElectroDB sends with the SDK it is given', () => {
    const edgeDir = bundled('edge').assetDir;
    const code = (file: string) => readFileSync(file, 'utf8');
    const chunks = readdirSync(join(edgeDir, CHUNK_DIRECTORY)).map((name) => join(edgeDir, CHUNK_DIRECTORY, name));
    const modelChunk = chunks.find((file) => code(file).includes('electrodb.dev'));
    expect(modelChunk).toBeDefined();
    const atInit = filesLoadedAtInit(join(edgeDir, 'index.mjs'));
    expect(atInit.has(modelChunk!)).toBe(false);
    // The document client (its refusal of cacheMiddleware is a string of it) loads with the model, and ElectroDB's
    // `Service` (its "Invalid service name" message) not at all: shared/platform/data/electrodb-entry.cjs.
    for (const file of atInit) expect(code(file)).not.toContain('@aws-sdk/lib-dynamodb - cacheMiddleware');
    expect(code(modelChunk!)).toContain('@aws-sdk/lib-dynamodb - cacheMiddleware');
    expect(chunks.some((file) => code(file).includes('Invalid service name'))).toBe(false);
    // Nor do /api's field rules or the usage writer's message schema, which only other functions build.
    for (const file of atInit) expect(code(file)).not.toMatch(/must be a valid e-mail address|receivedAt/);
    // No module of the bundle is wrapped for a `require()` (esbuild's lazy initializers, parsed twice): ElectroDB's
    // requires of the SDK go to shared/platform/data/electrodb-sdk.cjs, which requires nothing.
    for (const file of [join(edgeDir, 'index.mjs'), ...chunks]) expect(code(file)).not.toMatch(/([\w$]+)&&\(([\w$]+)=\1\(\1=0\)\),\2/);
    // Every CommonJS module (ElectroDB's among them) is a function V8 compiles once (eager-commonjs.mjs): none is left to rewrite.
    const built = new Map([join(edgeDir, 'index.mjs'), ...chunks].map((file) => [file, code(file)]));
    expect(compileCommonJsEagerly(built).modules).toBe(0);
    expect(code(modelChunk!).match(/\(\(function\(/g)?.length).toBeGreaterThan(10);
    // The model as `data.load()` gets it: an entity is built (its model check is the bundle's) and sends the SDK's command.
    const probe = join(edgeDir, 'model-probe.mjs');
    writeFileSync(
      probe,
      `const model = await import('./${CHUNK_DIRECTORY}/${basename(modelChunk!)}');
       const license = model.ENTITY_FACTORIES.license();
       const sent = [];
       license.setClient({ send: async (command) => (sent.push(typeof command.resolveMiddleware, command.input), {}) });
       license.setTableName('table');
       await license.get({ licenseKey: 'KEY-AAAA' }).go();
       console.log(JSON.stringify(sent));`,
    );
    // An SDK command (the document client's GetCommand, minified past its name) of ElectroDB's request.
    expect(JSON.parse(execFileSync(process.execPath, [probe], { encoding: 'utf8' }))).toEqual([
      'function',
      { TableName: 'table', Key: { pk: '$licensing#licenseKey_KEY-AAAA', sk: '$license_1' } },
    ]);
  }, 120_000);

  it("ships only the SDK schemas of the operations the service sends (sdk-schema-keys.mjs), not each client's every one", () => {
    const { assetDir } = bundled('management');
    const files = [join(assetDir, 'index.mjs'), ...readdirSync(join(assetDir, CHUNK_DIRECTORY)).map((name) => join(assetDir, CHUNK_DIRECTORY, name))];
    const code = files.map((file) => readFileSync(file, 'utf8')).join('\n');
    // S3's and DynamoDB's schemas of what the service sends are there; a bucket policy and a PartiQL statement are not.
    expect(code).toContain('CreateMultipartUpload');
    expect(code).toContain('TransactWriteItems');
    expect(code).not.toContain('PutBucketPolicy');
    expect(code).not.toContain('ExecuteStatement');
  }, 120_000);

  it("sends S3's and DynamoDB's requests, and reads their answers, as the SDK's own modules do", () => {
    const { assetDir } = bundled('management');
    const chunk = (prefix: string) => join(assetDir, CHUNK_DIRECTORY, readdirSync(join(assetDir, CHUNK_DIRECTORY)).find((name) => name.startsWith(prefix))!);
    // support/sdk-probe.mjs, through the bundle's S3 SDK and data model, and through the modules they are built from.
    const probe = (s3Sdk: string, model: string) =>
      JSON.parse(
        execFileSync(process.execPath, ['--import', 'tsx', SDK_PROBE, pathToFileURL(s3Sdk).href, pathToFileURL(model).href, import.meta.resolve('@aws-sdk/client-dynamodb')], {
          encoding: 'utf8',
          env: { PATH: process.env.PATH, AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'probe', AWS_SECRET_ACCESS_KEY: 'probe', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
        }),
      );
    const fromBundle = probe(chunk('s3-sdk-'), chunk('model-'));
    expect(fromBundle).toEqual(probe(join(PROJECT_ROOT, 'shared/platform/aws/s3-sdk.ts'), join(PROJECT_ROOT, 'shared/platform/data/model.ts')));
    expect(fromBundle.requests.map(({ method }: { method: string }) => method)).toEqual(['PUT', 'GET', 'GET', 'POST', 'POST', 'POST']);
    expect(fromBundle.answers).toMatchObject([
      { ETag: '"e1"', VersionId: 'v1', status: 200 },
      { ContentType: 'application/zip', ContentLength: 5, Metadata: { release: 'r1' }, body: 'hello' },
      { error: 'NoSuchKey', status: 404 },
      { data: { licenseKey: 'KEY-AAAA', seats: 3 } },
      { data: [{ licenseId: 'lic_1' }] },
      { error: 'ConditionalCheckFailedException', status: 400 },
    ]);
  }, 120_000);

  it('ships a source map, and turns it on, with -c sourceMaps=true', () => {
    const { fn, assetDir } = bundledStack({ sourceMaps: 'true' })('management');
    expect(readdirSync(assetDir).sort()).toEqual(['chunks', 'index.mjs', 'index.mjs.map']);
    expect(fn.Properties.Environment.Variables.NODE_OPTIONS).toBe('--enable-source-maps');
  }, 120_000);
});
