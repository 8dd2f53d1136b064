// A bundle's `require` banner, kept only in the files that use it (bundle-function.mjs applies it to every built file).
//
// esbuild writes the banner (bundling.ts: `createRequire(import.meta.url)`, for the CommonJS code that requires Node
// built-ins) at the top of every file it outputs, chunks included; most chunks never call `require`, yet each makes
// one when it loads: about 1.5 ms of a cold start for nine files, measured (bench/cold-start.ts loads 4–9 at init).
import * as acorn from 'acorn';

/**
 * Whether the code reads a free `require`: a `require` token that is not a property name (`x.require`). Tokens, not
 * text, so that strings and comments do not count; code the tokenizer cannot read counts as using it.
 */
export function readsRequire(code) {
  try {
    let previous;
    for (const token of acorn.tokenizer(code, { ecmaVersion: 'latest', sourceType: 'module' })) {
      if (token.type === acorn.tokTypes.name && token.value === 'require' && previous !== acorn.tokTypes.dot && previous !== acorn.tokTypes.questionDot) return true;
      previous = token.type;
    }
    return false;
  } catch {
    return true;
  }
}

/** The built files (path → code) with `banner` and the line break after it taken off each file that does not read `require`. */
export function keepRequireBannerWhereRead(files, banner) {
  const prefix = `${banner}\n`;
  return new Map([...files].map(([path, code]) => [path, code.startsWith(prefix) && !readsRequire(code.slice(prefix.length)) ? code.slice(prefix.length) : code]));
}
