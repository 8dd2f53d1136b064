// A bundle's CommonJS modules, compiled by V8 once instead of twice (bundle-function.mjs applies it to every built file).
//
// esbuild puts each CommonJS module of an ESM bundle (ElectroDB, mnemonist, …) in an arrow function that its `require`
// helper calls: `var x = h((exports, module) => { …the module… })`. V8 compiles a function lazily: it pre-parses the
// whole module when it loads the file, then parses it again in full when the module is required, which in these
// bundles is always at load. A function expression in parentheses is what V8 compiles eagerly (its heuristic for
// functions that are called at once), so the module is parsed once: 10–20 ms of a cold start in a function that loads
// ElectroDB's 190 KB (bench/cold-start.ts). Nothing else changes: esbuild's helper calls the function plainly, so
// `this` is undefined either way, and a module whose body uses `this` or `arguments` is left as it is.
import { dirname, resolve } from 'node:path';
import * as acorn from 'acorn';
import MagicString from 'magic-string';

/** esbuild's `require` helper as its minified output defines it: `(a,b)=>()=>…(b={exports:{}}).exports…`. */
function isRequireHelper(node, code) {
  return (
    node?.type === 'ArrowFunctionExpression' &&
    node.params.length === 2 &&
    node.body.type === 'ArrowFunctionExpression' &&
    code.slice(node.start, node.end).includes('exports:{}')
  );
}

/** Whether `this`, `arguments` or `new.target` appear in the function's own scope (not in a nested `function`). */
function usesOwnScope(node) {
  if (!node || typeof node.type !== 'string') return false;
  if (node.type === 'ThisExpression' || node.type === 'MetaProperty' || (node.type === 'Identifier' && node.name === 'arguments')) return true;
  if (node.type === 'FunctionDeclaration' || node.type === 'FunctionExpression' || node.type === 'ClassBody') return false;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'type' || key === 'start' || key === 'end') continue;
    if (Array.isArray(value) ? value.some(usesOwnScope) : value && typeof value === 'object' && usesOwnScope(value)) return true;
  }
  return false;
}

/** The top-level declarations of a parsed module: its helper's local names, what it exports, what it imports from whom. */
function describe(ast, code) {
  const helpers = new Set();
  const exported = new Map();
  const imported = [];
  for (const statement of ast.body) {
    if (statement.type === 'VariableDeclaration') {
      for (const declaration of statement.declarations) if (isRequireHelper(declaration.init, code)) helpers.add(declaration.id.name);
    } else if (statement.type === 'ExportNamedDeclaration' && !statement.source) {
      for (const specifier of statement.specifiers) exported.set(specifier.exported.name, specifier.local.name);
    } else if (statement.type === 'ImportDeclaration') {
      for (const specifier of statement.specifiers) {
        if (specifier.type === 'ImportSpecifier') imported.push({ from: statement.source.value, name: specifier.imported.name, local: specifier.local.name });
      }
    }
  }
  return { helpers, exported, imported };
}

/**
 * The built files of one bundle (absolute path → code), with every top-level `var x = helper((exports, module) => {…})`
 * rewritten as `var x = helper(function(exports, module){…})` in parentheses. Returns the rewritten files and how many
 * modules it rewrote.
 */
export function compileCommonJsEagerly(files) {
  const parsed = new Map();
  for (const [path, code] of files) {
    const ast = acorn.parse(code, { ecmaVersion: 'latest', sourceType: 'module' });
    parsed.set(path, { ast, code, ...describe(ast, code) });
  }
  const exportsHelper = (path, name) => {
    const file = parsed.get(path);
    return file !== undefined && file.helpers.has(file.exported.get(name));
  };
  const rewritten = new Map();
  let modules = 0;
  for (const [path, file] of parsed) {
    const helpers = new Set(file.helpers);
    for (const { from, name, local } of file.imported) if (exportsHelper(resolve(dirname(path), from), name)) helpers.add(local);
    const output = new MagicString(file.code);
    for (const statement of file.ast.body) {
      if (statement.type !== 'VariableDeclaration') continue;
      for (const { init } of statement.declarations) {
        const module = init?.type === 'CallExpression' && init.callee.type === 'Identifier' && helpers.has(init.callee.name) ? init.arguments[0] : undefined;
        if (module?.type !== 'ArrowFunctionExpression' || module.body.type !== 'BlockStatement' || usesOwnScope(module.body)) continue;
        const params = module.params.map((param) => file.code.slice(param.start, param.end)).join(',');
        output.overwrite(module.start, module.body.start, `(function(${params})`);
        output.appendLeft(module.end, ')');
        modules++;
      }
    }
    rewritten.set(path, output.toString());
  }
  return { files: rewritten, modules };
}
