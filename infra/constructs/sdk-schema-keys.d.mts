/** sdk-schema-keys.mjs: an SDK schema module's source with its computed keys written as literals, and esbuild's plugin that does it. */
export function literalSchemaKeys(code: string): { code: string; keys: number };
export const sdkSchemaKeysPlugin: import('esbuild').Plugin;
