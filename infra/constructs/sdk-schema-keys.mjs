// The AWS SDK clients' schema modules, with their computed keys written out, so that esbuild drops the schemas a bundle
// does not use (bundle-function.mjs applies it to every `@aws-sdk/client-*/dist-es/schemas/` file it bundles).
//
// Each client's `schemas_0.js` declares every operation's and every shape's schema, S3's 481 of them in 137 KB, as
// arrays whose objects use computed keys: `{ [_h]: ["PUT", …] }` after `const _h = "http"`. esbuild keeps any top-level
// statement it cannot prove free of side effects, and a computed key might run code (a key is converted to a string),
// so it kept them all: a bundle that sends nine S3 commands parsed all 481 at load, 12–20 ms of V8's compile time
// in every function that loads S3. A computed key whose name is a top-level `const` of a string literal is that string:
// writing the literal instead changes no value, and esbuild then keeps only the schemas that something reaches.
import * as acorn from 'acorn';
import MagicString from 'magic-string';

/** The schema modules of the SDK's clients. */
export const SDK_SCHEMA_FILE = /[\\/]node_modules[\\/]@aws-sdk[\\/]client-[^\\/]+[\\/]dist-es[\\/]schemas[\\/][^\\/]+\.js$/;

/** The names declared anywhere but the module's top level: function parameters and names, nested declarations. */
function nestedNames(node, topLevel, names = new Set()) {
  if (!node || typeof node.type !== 'string') return names;
  const declare = (pattern) => {
    if (pattern?.type === 'Identifier') names.add(pattern.name);
    else if (pattern && typeof pattern === 'object') for (const value of Object.values(pattern)) if (value && typeof value === 'object') declare(value);
  };
  if (node.type === 'FunctionDeclaration' || node.type === 'FunctionExpression' || node.type === 'ArrowFunctionExpression') {
    node.params.forEach(declare);
    if (node.id) declare(node.id);
  } else if ((node.type === 'VariableDeclaration' && !topLevel.has(node)) || node.type === 'CatchClause' || node.type === 'ClassDeclaration') {
    declare(node.type === 'VariableDeclaration' ? node.declarations.map((d) => d.id) : node.type === 'CatchClause' ? node.param : node.id);
  }
  for (const [key, value] of Object.entries(node)) {
    if (key === 'type' || key === 'start' || key === 'end') continue;
    for (const child of Array.isArray(value) ? value : [value]) if (child && typeof child === 'object') nestedNames(child, topLevel, names);
  }
  return names;
}

/** Every computed property key in the tree, with the visitor's own recursion. */
function forEachComputedKey(node, visit) {
  if (!node || typeof node.type !== 'string') return;
  if (node.type === 'Property' && node.computed && node.kind === 'init' && !node.method) visit(node);
  for (const [key, value] of Object.entries(node)) {
    if (key === 'type' || key === 'start' || key === 'end') continue;
    for (const child of Array.isArray(value) ? value : [value]) if (child && typeof child === 'object') forEachComputedKey(child, visit);
  }
}

/**
 * The module's source with each computed key `[name]` written as the string literal of the top-level
 * `const name = "…"` it names, where no nested scope declares `name`; `keys` says how many were written out.
 */
export function literalSchemaKeys(code) {
  const ast = acorn.parse(code, { ecmaVersion: 'latest', sourceType: 'module' });
  const topLevel = new Set(ast.body.filter((statement) => statement.type === 'VariableDeclaration'));
  const strings = new Map();
  for (const statement of topLevel) {
    if (statement.kind !== 'const') continue;
    for (const { id, init } of statement.declarations) {
      if (id.type === 'Identifier' && init?.type === 'Literal' && typeof init.value === 'string') strings.set(id.name, init.raw);
    }
  }
  for (const name of nestedNames(ast, topLevel)) strings.delete(name);
  const output = new MagicString(code);
  let keys = 0;
  forEachComputedKey(ast, (property) => {
    const literal = property.key.type === 'Identifier' ? strings.get(property.key.name) : undefined;
    if (literal === undefined) return;
    output.overwrite(property.start, code.indexOf(']', property.key.end) + 1, literal);
    keys++;
  });
  return { code: output.toString(), keys };
}
