import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { compareVersions as serviceCompare } from '../../../../shared/catalog/releases/versions.js';
import { generateTypes, OUTPUT } from '../../scripts/generate-types.js';
import { compareVersions, normalizeDomain, parseCheckoutReturn } from '../../src/index.js';

const run = promisify(execFile);
const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

describe('the package', () => {
  it('has its wire types generated from the current OpenAPI document (npm run clients:types)', async () => {
    expect(readFileSync(OUTPUT, 'utf8')).toBe(await generateTypes());
  });

  it('is ready to publish: ESM with declarations, Node 18, no runtime dependencies', () => {
    expect(pkg).toMatchObject({
      name: expect.any(String),
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      type: 'module',
      license: expect.any(String),
      engines: { node: '>=18' },
      types: './dist/index.d.ts',
      exports: { '.': { types: './dist/index.d.ts', import: './dist/index.js' } },
    });
    expect(pkg.files).toContain('dist');
    expect(pkg.dependencies ?? {}).toEqual({});
    expect(pkg.peerDependencies ?? {}).toEqual({});
  });

  it('builds with its own tsconfig, and the built module runs in plain Node with nothing but relative imports', async () => {
    const out = mkdtempSync(join(tmpdir(), 'licensing-client-'));
    try {
      await run(process.execPath, [join(root, '../../node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.json'), '--outDir', out]);
      const files = readdirSync(out);
      expect(files).toEqual(expect.arrayContaining(['index.js', 'index.d.ts', 'client.js', 'errors.js', 'http.js', 'cache.js']));
      for (const file of files.filter((f) => f.endsWith('.js'))) {
        const imports = [...readFileSync(join(out, file), 'utf8').matchAll(/\bfrom\s+['"]([^'"]+)['"]/g)].map((m) => m[1]!);
        for (const spec of imports) expect(spec, `${file} imports ${spec}`).toMatch(/^\.\/.+\.js$/);
      }
      // The emitted module, without vitest or TypeScript, as a consumer's Node would load it.
      const script = `
        const m = await import(${JSON.stringify(join(out, 'index.js'))});
        const c = new m.LicensingClient({ baseUrl: 'https://licenses.example.com', publicKey: 'pk_x' });
        const e = new m.LicenseExpiredError();
        console.log(JSON.stringify({ url: c.checkoutUrl({ plan: 'pro' }), expired: e instanceof m.LicenseError && e.code, cmp: m.compareVersions('1.10', '1.9') }));`;
      const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script]);
      expect(JSON.parse(stdout)).toEqual({ url: 'https://licenses.example.com/public/v1/checkout?public_key=pk_x&plan=pro', expired: 'expired', cmp: 1 });
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('helpers', () => {
  it('orders versions exactly as the service does', () => {
    const versions = ['1.0', '1.0.0', '1.0.1', '1.0-beta', '1.0-rc1', '1.0-alpha', '1.0-dev', '1.10', '1.9.9', 'v2.0', '2.0+build.5', '2.0-pl1', '10', '0.9', '1.0a', '3'];
    for (const a of versions) for (const b of versions) expect(compareVersions(a, b), `${a} vs ${b}`).toBe(serviceCompare(a, b));
  });

  it('normalizes domains as the service does', () => {
    expect(normalizeDomain('https://WWW.Example.com:8080/x')).toBe('example.com');
    expect(normalizeDomain('shop.example.com.')).toBe('shop.example.com');
    expect(normalizeDomain('http://localhost:3000')).toBe('localhost');
  });

  it('reads the checkout return URL', () => {
    expect(parseCheckoutReturn('https://app.test/thanks?svc_activate=ACME-AAAA-BBBB-CCCC-DDDD')).toEqual({ status: 'activated', licenseKey: 'ACME-AAAA-BBBB-CCCC-DDDD' });
    expect(parseCheckoutReturn('https://app.test/thanks?svc_pending=1')).toEqual({ status: 'pending' });
    expect(parseCheckoutReturn('https://app.test/thanks?key=K1', { activateParam: 'key' })).toEqual({ status: 'activated', licenseKey: 'K1' });
    expect(parseCheckoutReturn('https://app.test/thanks')).toBeNull();
  });
});
