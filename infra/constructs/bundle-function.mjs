// Builds one function's bundle: `node bundle-function.mjs` with `{ options, electroDb }` (JSON) on stdin, where
// `options` are esbuild's (infra/constructs/bundling.ts). A file of its own, run in a child process, because CDK
// bundles synchronously and esbuild runs plugins only in its asynchronous API.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { build } from 'esbuild';
import { compileCommonJsEagerly } from './eager-commonjs.mjs';
import { keepRequireBannerWhereRead } from './require-banner.mjs';
import { sdkSchemaKeysPlugin } from './sdk-schema-keys.mjs';

/** `electroDb`: the files that stand in for ElectroDB's index (`entry`) and for the SDK modules it requires (`sdk`). */
const { options, electroDb } = JSON.parse(readFileSync(0, 'utf8'));

/** ElectroDB's own files, whose requires of the SDK's document client and marshaller go to `electroDb.sdk` instead. */
const ELECTRODB_FILE = /[\\/]node_modules[\\/]electrodb[\\/]/;

/** shared/platform/data/electrodb-entry.cjs and shared/platform/data/electrodb-sdk.cjs say why. */
const electroDbPlugin = {
  name: 'electrodb',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^electrodb$/ }, () => ({ path: electroDb.entry }));
    esbuild.onResolve({ filter: /^@aws-sdk\/(lib|util)-dynamodb$/ }, (args) => (ELECTRODB_FILE.test(args.importer) ? { path: electroDb.sdk } : undefined));
  },
};

// sdkSchemaKeysPlugin: sdk-schema-keys.mjs says why.
const { outputFiles } = await build({ ...options, write: false, plugins: [electroDbPlugin, sdkSchemaKeysPlugin] });
const code = new Map(outputFiles.filter((file) => file.path.endsWith('.mjs')).map((file) => [file.path, file.text]));
// eager-commonjs.mjs and require-banner.mjs say why. Not with a source map, whose lines and columns they would shift.
const built = options.sourcemap ? code : keepRequireBannerWhereRead(compileCommonJsEagerly(code).files, options.banner.js);
for (const file of outputFiles) {
  mkdirSync(dirname(file.path), { recursive: true });
  writeFileSync(file.path, built.get(file.path) ?? file.contents);
}
