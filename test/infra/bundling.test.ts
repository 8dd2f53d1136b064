import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { cdkApp } from './support/app.js';
import { LicensingStack } from '../../infra/stack.js';

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

  it('builds an ESM bundle with a require banner, no source map, and no credential source but the environment', () => {
    const { fn, assetDir } = bundled('management');
    expect(fn.Properties.Handler).toBe('index.handler');
    expect(readdirSync(assetDir).sort()).toEqual(['index.mjs', 'node_modules']);
    expect(fn.Properties.Environment.Variables.NODE_OPTIONS).toBeUndefined();
    const code = readFileSync(join(assetDir, 'index.mjs'), 'utf8');
    expect(code.startsWith("import { createRequire as __createRequire } from 'node:module';")).toBe(true);
    expect(code).toMatch(/export\s*\{[^}]*\bhandler\b/);
    // The SDK's default chain would bring its SSO source (and the others) along.
    expect(code).not.toContain('sso_start_url');
  }, 120_000);

  it('ships stripe beside the bundle, loaded by the first request that needs it, and only to functions that import it', async () => {
    const publicFn = bundled('public').assetDir;
    expect(readdirSync(join(publicFn, 'node_modules'))).toEqual(['stripe']);
    // Stripe's own code is not in the bundle parsed at every cold start: its API host is a string of that code.
    expect(readFileSync(join(publicFn, 'index.mjs'), 'utf8')).not.toContain('api.stripe.com');
    // Resolved from the bundle's directory as Lambda's Node resolves `import('stripe')` from /var/task/index.mjs.
    const probe = join(publicFn, 'probe.mjs');
    writeFileSync(probe, "const { default: Stripe } = await import('stripe'); console.log(typeof new Stripe('sk_test_probe').checkout.sessions.create);");
    expect(execFileSync(process.execPath, [probe], { encoding: 'utf8' }).trim()).toBe('function');
    expect(readdirSync(bundled('edge').assetDir)).toEqual(['index.mjs']);
  }, 120_000);

  it('ships a source map, and turns it on, with -c sourceMaps=true', () => {
    const { fn, assetDir } = bundledStack({ sourceMaps: 'true' })('management');
    expect(readdirSync(assetDir).sort()).toEqual(['index.mjs', 'index.mjs.map', 'node_modules']);
    expect(fn.Properties.Environment.Variables.NODE_OPTIONS).toBe('--enable-source-maps');
  }, 120_000);
});
