import { build } from 'esbuild';
import { functionBuildOptions } from '/work/main/infra/constructs/bundling.ts';
const entry = process.argv[2]!;
const out = '/tmp/meta-out';
const r = await build({ ...functionBuildOptions(entry, out, { sourceMap: false }), metafile: true, logLevel: 'silent' });
// Output files loaded at init: index.mjs and its static imports
const outputs = r.metafile!.outputs;
const initFiles = new Set<string>();
const visit = (f: string) => { if (initFiles.has(f)) return; initFiles.add(f); for (const i of outputs[f]!.imports) if (i.kind === 'import-statement' && outputs[i.path]) visit(i.path); };
const main = Object.keys(outputs).find((f) => f.endsWith('index.mjs'))!;
visit(main);
const byPkg = new Map<string, number>();
for (const f of initFiles) for (const [input, { bytesInOutput }] of Object.entries(outputs[f]!.inputs)) {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
  const k = m ? m[1]! : input.split('/').slice(0, 2).join('/');
  byPkg.set(k, (byPkg.get(k) ?? 0) + bytesInOutput);
}
const total = [...byPkg.values()].reduce((a, b) => a + b, 0);
console.log('init total KB', (total / 1024).toFixed(0));
for (const [k, v] of [...byPkg].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log((v / 1024).toFixed(1).padStart(7), k);
