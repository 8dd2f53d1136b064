import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
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

/** The management function of a stack synthesized with bundling, and the directory of its bundle. */
function bundledManagement(context: Record<string, string> = {}) {
  const app = cdkApp(mkdtempSync(join(outRoot, 'app-')), context);
  const stack = new LicensingStack(app, 'LicensingService');
  const logicalId = stack.getLogicalId(stack.functions.management.node.defaultChild as CfnElement);
  const fn = Template.fromStack(stack).toJSON().Resources[logicalId] as FunctionResource;
  const assetDir = join(app.outdir, `asset.${fn.Properties.Code.S3Key.replace(/\.zip$/, '')}`);
  return { fn, assetDir };
}

describe('bundling', () => {
  it('builds an ESM bundle with a require banner, no source map, and no credential source but the environment', () => {
    const { fn, assetDir } = bundledManagement();
    expect(fn.Properties.Handler).toBe('index.handler');
    expect(readdirSync(assetDir).sort()).toEqual(['index.mjs']);
    expect(fn.Properties.Environment.Variables.NODE_OPTIONS).toBeUndefined();
    const code = readFileSync(join(assetDir, 'index.mjs'), 'utf8');
    expect(code.startsWith("import { createRequire as __createRequire } from 'node:module';")).toBe(true);
    expect(code).toMatch(/export\s*\{[^}]*\bhandler\b/);
    // The SDK's default chain would bring its SSO source (and the others) along.
    expect(code).not.toContain('sso_start_url');
  }, 120_000);

  it('ships a source map, and turns it on, with -c sourceMaps=true', () => {
    const { fn, assetDir } = bundledManagement({ sourceMaps: 'true' });
    expect(readdirSync(assetDir).sort()).toEqual(['index.mjs', 'index.mjs.map']);
    expect(fn.Properties.Environment.Variables.NODE_OPTIONS).toBe('--enable-source-maps');
  }, 120_000);
});
