/** eager-commonjs.mjs: a bundle's built files (absolute path → code), its CommonJS modules rewritten to compile eagerly. */
export function compileCommonJsEagerly(files: ReadonlyMap<string, string>): { files: Map<string, string>; modules: number };
