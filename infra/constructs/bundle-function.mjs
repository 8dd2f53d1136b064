// Builds one function's bundle: `node bundle-function.mjs` with `{ options, electroDbSdk }` (JSON) on stdin, where
// `options` are esbuild's (infra/constructs/bundling.ts). A file of its own, run in a child process, because CDK
// bundles synchronously and esbuild runs plugins only in its asynchronous API.
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

const { options, electroDbSdk } = JSON.parse(readFileSync(0, 'utf8'));

/** ElectroDB's own files, whose requires of the SDK's document client and marshaller go to `electroDbSdk` instead. */
const ELECTRODB_FILE = /[\\/]node_modules[\\/]electrodb[\\/]/;

/** shared/data/electrodb-sdk.cjs says why. */
const electroDbSdkPlugin = {
  name: 'electrodb-sdk',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^@aws-sdk\/(lib|util)-dynamodb$/ }, (args) => (ELECTRODB_FILE.test(args.importer) ? { path: electroDbSdk } : undefined));
  },
};

await build({ ...options, plugins: [electroDbSdkPlugin] });
