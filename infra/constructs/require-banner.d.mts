/** require-banner.mjs: whether code reads a free `require`. */
export function readsRequire(code: string): boolean;
/** require-banner.mjs: the built files (absolute path → code), `banner` taken off those that do not read `require`. */
export function keepRequireBannerWhereRead(files: ReadonlyMap<string, string>, banner: string): Map<string, string>;
