/** sdk-schema-keys.mjs: the SDK clients' schema modules, and one's source with its computed keys written as literals. */
export const SDK_SCHEMA_FILE: RegExp;
export function literalSchemaKeys(code: string): { code: string; keys: number };
