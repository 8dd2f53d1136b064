/**
 * The fields of a partial input that carry a value. In the API, `null` clears an optional field and an
 * absent one keeps it, so both are left out of what is set (callers remove the `null` ones themselves).
 */
export function withoutNulls<T extends object>(fields: T): { [K in keyof T]: Exclude<T[K], null> } {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== null && v !== undefined)) as {
    [K in keyof T]: Exclude<T[K], null>;
  };
}
