import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { literalSchemaKeys, sdkSchemaKeysPlugin } from '../../../infra/constructs/sdk-schema-keys.mjs';

const work = mkdtempSync(join(tmpdir(), 'sdk-schema-keys-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** S3's schema module, as the SDK installs it. */
const s3Schemas = join(dirname(createRequire(import.meta.url).resolve('@aws-sdk/client-s3')), '../dist-es/schemas/schemas_0.js');

/** A bundle of a module exporting S3's GetObject schema, with or without the rewrite; its size and its exports. */
async function bundleGetObjectSchema(rewrite: boolean) {
  const entry = join(work, 'entry.mjs');
  writeFileSync(entry, `export { GetObject$, NoSuchKey$ } from ${JSON.stringify(s3Schemas)};`);
  const outfile = join(work, `out-${rewrite}.mjs`);
  const result = await build({ entryPoints: [entry], outfile, bundle: true, format: 'esm', platform: 'node', write: true, plugins: rewrite ? [sdkSchemaKeysPlugin] : [] });
  expect(result.errors).toEqual([]);
  return { size: statSync(outfile).size, module: await import(pathToFileURL(outfile).href) };
}

/** A schema as plain data: its thunks (`() => OtherSchema$`) followed to a depth, so two copies can be compared. */
function resolved(value: unknown, depth = 6): unknown {
  if (typeof value === 'function') return depth ? resolved(value(), depth - 1) : 'thunk';
  if (Array.isArray(value)) return value.map((item) => resolved(item, depth));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, resolved(item, depth)]));
  return value;
}

describe('literalSchemaKeys', () => {
  it('writes each computed key naming a top-level string constant as that string', () => {
    const { code, keys } = literalSchemaKeys('const _h = "http", _q = \'query\';\nexport var A = [3, { [_h]: ["PUT", "/"] }, [[0, { [_q]: _h }]]];');
    expect(keys).toBe(2);
    expect(code).toBe('const _h = "http", _q = \'query\';\nexport var A = [3, { "http": ["PUT", "/"] }, [[0, { \'query\': _h }]]];');
  });

  it('leaves keys naming anything else, or a name a nested scope declares, and accessors', () => {
    const source = [
      'let _l = "let";',
      'const _n = 1;',
      'const _s = "shadowed";',
      'const _g = "getter";',
      'export var A = [{ [_l]: 1 }, { [_n]: 2 }, { [_s]: 3 }, { get [_g]() { return 4; } }, { [unknown]: 5 }];',
      'export const f = (_s) => ({ [_s]: _s });',
    ].join('\n');
    expect(literalSchemaKeys(source)).toEqual({ code: source, keys: 0 });
  });

  it('keeps only the S3 schemas a bundle uses, each the same as the SDK builds it', async () => {
    const [plain, rewritten] = [await bundleGetObjectSchema(false), await bundleGetObjectSchema(true)];
    // esbuild keeps every statement with a computed key: all of S3's 481 schemas, where GetObject needs a few.
    expect(rewritten.size).toBeLessThan(plain.size / 3);
    expect(resolved(rewritten.module.GetObject$)).toEqual(resolved(plain.module.GetObject$));
    expect(resolved(rewritten.module.NoSuchKey$)).toEqual(resolved(plain.module.NoSuchKey$));
    expect(JSON.stringify(resolved(plain.module.GetObject$))).toContain('httpHeader');
  });
});
