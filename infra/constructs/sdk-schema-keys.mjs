// The AWS SDK clients' schema modules, with their computed keys written out, so that esbuild drops the schemas a bundle
// does not use (bundle-function.mjs applies it to every `@aws-sdk/client-*/dist-es/schemas/` file it bundles).
//
// Each client's `schemas_0.js` declares every operation's and every shape's schema, S3's 481 of them in 137 KB, as
// arrays whose objects use computed keys: `{ [_h]: ["PUT", …] }` after `const _h = "http"`. esbuild keeps any top-level
// statement it cannot prove free of side effects, and a computed key might run code (a key is converted to a string),
// so it kept them all: a bundle that sends nine S3 commands parsed all 481 at load, 12–20 ms of V8's compile time
// in every function that loads S3. A computed key whose name is a top-level `const` of a string literal is that string:
// writing the literal instead changes no value, and esbuild then keeps only the schemas that something reaches.
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import * as acorn from 'acorn';
import { ancestor, simple } from 'acorn-walk';
import MagicString from 'magic-string';

/** The schema modules of the SDK's clients. */
const SDK_SCHEMA_FILE = /[\\/]node_modules[\\/]@aws-sdk[\\/]client-[^\\/]+[\\/]dist-es[\\/]schemas[\\/][^\\/]+\.js$/;

/**
 * The module's source with each computed key `[name]` written as the string literal of the top-level
 * `const name = "…"` it names, where no nested scope declares `name`; `keys` says how many were written out.
 */
export function literalSchemaKeys(code) {
  const ast = acorn.parse(code, { ecmaVersion: 'latest', sourceType: 'module' });
  const strings = new Map();
  for (const statement of ast.body) {
    if (statement.type !== 'VariableDeclaration' || statement.kind !== 'const') continue;
    for (const { id, init } of statement.declarations) {
      if (id.type === 'Identifier' && init?.type === 'Literal' && typeof init.value === 'string') strings.set(id.name, init.raw);
    }
  }
  // A name declared anywhere but a top-level declaration (a parameter, a nested one) may hide the constant: left alone.
  ancestor(ast, {
    VariablePattern(node, _, ancestors) {
      const topLevel = ancestors.length === 4 && ancestors[1].type === 'VariableDeclaration';
      if (!topLevel) strings.delete(node.name);
    },
  });
  const output = new MagicString(code);
  let keys = 0;
  simple(ast, {
    Property(property) {
      const literal = property.computed && property.kind === 'init' && !property.method && property.key.type === 'Identifier' ? strings.get(property.key.name) : undefined;
      if (literal === undefined) return;
      output.overwrite(property.start, code.indexOf(']', property.key.end) + 1, literal);
      keys++;
    },
  });
  return { code: output.toString(), keys };
}

/** esbuild's plugin that gives it every SDK schema module rewritten by `literalSchemaKeys`. */
export const sdkSchemaKeysPlugin = {
  name: 'sdk-schema-keys',
  setup(esbuild) {
    esbuild.onLoad({ filter: SDK_SCHEMA_FILE }, async (args) => ({
      contents: literalSchemaKeys(await readFile(args.path, 'utf8')).code,
      loader: 'js',
      resolveDir: dirname(args.path),
    }));
  },
};
