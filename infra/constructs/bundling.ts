import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';

/** The project root: handler entries and the bundling aliases are relative to it. */
export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * ESM bundles have no `require`; some CommonJS dependencies bundled into them still call it
 * (for Node built-ins). The alias avoids clashing with a bundled `createRequire` import.
 */
const ESM_REQUIRE_BANNER =
  "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);";

/** Modules replaced in the Lambda bundles by smaller ones that do what Lambda needs of them (each file says why). */
export const BUNDLE_ALIASES: Record<string, string> = {
  '@aws-sdk/credential-provider-node': 'shared/aws/lambda-credentials.ts',
};

/**
 * Packages a function loads only on some requests (`await import(…)`), shipped as a bundle of their own in the asset's
 * `node_modules` rather than inside `index.mjs`: a module inside the bundle is parsed at every cold start even when no
 * request of the container needs it. `stripe` is a quarter of the public function's bundle and only checkout uses it
 * (issue 26: init ≤ 100 ms; `bench/cold-start.ts`).
 */
export const LAZY_PACKAGES = ['stripe'] as const;

/**
 * How every function is bundled; `bench/cold-start.ts` measures what this produces through `cdk synth`.
 * The AWS SDK is bundled, not taken from the runtime: loading the runtime's copy from its many files costs
 * more at cold start than parsing the few parts a function uses, and the deployed code runs the SDK
 * versions the tests ran (docs/deploy.md). Each function carries only the clients it creates; ESM entry
 * points (`module`) let esbuild drop what a function does not import.
 */
export function functionBundling(options: { sourceMap: boolean }): BundlingOptions {
  return {
    format: OutputFormat.ESM,
    target: 'node22',
    mainFields: ['module', 'main'],
    banner: ESM_REQUIRE_BANNER,
    minify: true,
    // Off by default: a map doubles the asset and `--enable-source-maps` slows every cold start and stack trace.
    sourceMap: options.sourceMap,
    externalModules: [...LAZY_PACKAGES],
    esbuildArgs: Object.fromEntries(Object.entries(BUNDLE_ALIASES).map(([name, file]) => [`--alias:${name}`, join(PROJECT_ROOT, file)])),
  };
}

/**
 * Shell commands run after esbuild (`inputDir` is the project root): each lazy package the bundle imports becomes
 * `node_modules/<name>/index.mjs` of the asset, bundled alike, where Node's resolution of `import('<name>')` finds it. A
 * function that never imports it ships nothing more.
 */
export function lazyPackageCommands(inputDir: string, outputDir: string): string[] {
  const esbuild = `"${inputDir}/node_modules/.bin/esbuild"`;
  return LAZY_PACKAGES.map((name) => {
    const entry = relative(PROJECT_ROOT, fileURLToPath(import.meta.resolve(name)));
    const target = `${outputDir}/node_modules/${name}`;
    return (
      `if grep -q 'import("${name}")' "${outputDir}/index.mjs"; then ` +
      `${esbuild} "${inputDir}/${entry}" --bundle --platform=node --format=esm --target=node22 --minify --log-level=warning ` +
      `--banner:js="${ESM_REQUIRE_BANNER}" --outfile="${target}/index.mjs" && ` +
      `echo '{"type":"module","main":"index.mjs"}' > "${target}/package.json"; fi`
    );
  });
}
