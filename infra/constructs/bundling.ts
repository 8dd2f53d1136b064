import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AssetHashType, DockerImage, type ILocalBundling } from 'aws-cdk-lib';
import { Code } from 'aws-cdk-lib/aws-lambda';
import type { BuildOptions } from 'esbuild';

/** The project root: handler entries and the bundling aliases are relative to it. */
export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * ESM bundles have no `require`; some CommonJS dependencies bundled into them still call it
 * (for Node built-ins). The alias avoids clashing with a bundled `createRequire` import. esbuild writes it atop every
 * output file; bundle-function.mjs keeps it only in those that read `require` (require-banner.mjs says why).
 */
export const ESM_REQUIRE_BANNER =
  "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);";

/** Modules replaced in the Lambda bundles by smaller ones that do what Lambda needs of them (each file says why). */
export const BUNDLE_ALIASES: Record<string, string> = {
  '@aws-sdk/credential-provider-node': 'shared/platform/aws/lambda-credentials.ts',
  jsonschema: 'shared/platform/data/model-check.cjs',
};

/** Where the bundle's lazily loaded parts go, beside `index.mjs`. */
export const CHUNK_DIRECTORY = 'chunks';

/**
 * How every function is bundled; `bench/cold-start.ts` measures what this produces through `cdk synth`.
 *
 * - **Split at every `import()`** (esbuild's code splitting): what a function loads only on some requests (`stripe`
 *   for checkout, the KMS client that opens a signing key or a provider secret, the SQS client of the first usage, mail
 *   or webhook message, Secrets Manager, the readme and upload-form parsers) goes into `chunks/`, parsed by the first request that imports
 *   it, and code it shares with the rest into chunks that `index.mjs` imports. Everything in `index.mjs` and its
 *   static imports is parsed at every cold start, needed or not (issue 26: init ≤ 100 ms for edge and public).
 * - **The AWS SDK is bundled**, not taken from the runtime: loading the runtime's copy from its many files costs more
 *   at cold start than parsing the few parts a function uses, and the deployed code runs the SDK versions the tests
 *   ran (docs/deploy.md). ESM entry points (`module`) let esbuild drop what a function does not import.
 */
export function functionBuildOptions(entry: string, outdir: string, options: { sourceMap: boolean }): BuildOptions {
  return {
    entryPoints: { index: join(PROJECT_ROOT, entry) },
    outdir,
    outExtension: { '.js': '.mjs' },
    chunkNames: `${CHUNK_DIRECTORY}/[name]-[hash]`,
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    mainFields: ['module', 'main'],
    banner: { js: ESM_REQUIRE_BANNER },
    minify: true,
    // Off by default: a map doubles the asset and `--enable-source-maps` slows every cold start and stack trace.
    sourcemap: options.sourceMap,
    alias: Object.fromEntries(Object.entries(BUNDLE_ALIASES).map(([name, file]) => [name, join(PROJECT_ROOT, file)])),
    logLevel: 'warning',
  };
}

/**
 * Builds a function's bundle with `functionBuildOptions`, in a child process (infra/constructs/bundle-function.mjs) that
 * adds one plugin: ElectroDB's requires of the SDK go to shared/platform/data/electrodb-sdk.cjs (which says why).
 */
export function bundleFunction(entry: string, outdir: string, options: { sourceMap: boolean }): void {
  const electroDb = { entry: join(PROJECT_ROOT, 'shared/platform/data/electrodb-entry.cjs'), sdk: join(PROJECT_ROOT, 'shared/platform/data/electrodb-sdk.cjs') };
  const input = JSON.stringify({ options: functionBuildOptions(entry, outdir, options), electroDb });
  execFileSync(process.execPath, [join(PROJECT_ROOT, 'infra/constructs/bundle-function.mjs')], { input, stdio: ['pipe', 'inherit', 'inherit'] });
}

type FunctionAssets = { directory: string; files: Readonly<Record<string, string>> };

/**
 * Builds one function's asset with the local esbuild: its bundle (above), and `assets.files` (each `name` from `source`,
 * relative to the project root) copied into `assets.directory` beside it. Its fields are what CDK keys the built asset
 * under within a synthesis (it serializes the bundling options), so each function's is its own.
 */
class FunctionBundler implements ILocalBundling {
  constructor(
    readonly entry: string,
    readonly options: { sourceMap: boolean; assets?: FunctionAssets },
  ) {}

  tryBundle(outputDir: string): boolean {
    bundleFunction(this.entry, outputDir, this.options);
    const assets = this.options.assets;
    if (assets) {
      mkdirSync(join(outputDir, assets.directory), { recursive: true });
      for (const [name, source] of Object.entries(assets.files)) cpSync(join(PROJECT_ROOT, source), join(outputDir, assets.directory, name));
    }
    return true;
  }
}

/**
 * A function's code asset, built as `NodejsFunction` builds one but with code splitting, which `NodejsFunction` cannot
 * do (it gives esbuild a single `--outfile`). The asset's hash is its output's.
 */
export function functionCode(entry: string, options: { sourceMap: boolean; assets?: FunctionAssets }): Code {
  return Code.fromAsset(PROJECT_ROOT, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      // Required by the type; never pulled: the local build does the work or fails the synthesis.
      image: DockerImage.fromRegistry('public.ecr.aws/sam/build-nodejs22.x'),
      local: new FunctionBundler(entry, options),
    },
  });
}

/**
 * The files a cold start parses: a built `index.mjs` and every chunk it imports statically, transitively (not the
 * chunks only an `import()` loads). For `bench/cold-start.ts` and `test/infra/bundling.test.ts`.
 */
export function filesLoadedAtInit(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const match of readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*"(\.\/[^"]+)"/g)) filesLoadedAtInit(join(dirname(file), match[1]!), seen);
  return seen;
}
