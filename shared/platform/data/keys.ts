import { SERVICE_NAME } from './table-schema.js';

export function model<const E extends string>(entity: E) {
  return { entity, version: '1', service: SERVICE_NAME } as const;
}

// Key casing is kept as written ('none'): license keys and token digests are case-sensitive.

export function primaryKey<const P extends readonly string[], const S extends readonly string[] = []>(pk: P, sk?: S) {
  return {
    pk: { field: 'pk', composite: pk, casing: 'none' },
    sk: { field: 'sk', composite: (sk ?? []) as unknown as S, casing: 'none' },
  } as const;
}

/**
 * The table index of a product's records that are not the product (feedback, deactivation reasons, daily counts): a
 * partition of their own, `$licensing#productRecords_<productId>`, so the functions that write them (public API, usage
 * writer) are given no right to the product item, whose partition `productId` leads.
 */
export function productRecordsKey<const S extends readonly string[]>(sk: S) {
  return {
    pk: { field: 'pk', composite: ['productId'] as const, casing: 'none', template: `$${SERVICE_NAME}#productRecords_\${productId}` },
    sk: { field: 'sk', composite: sk, casing: 'none' },
  } as const;
}

export function globalIndex<const N extends 1 | 2 | 3 | 4 | 5, const P extends readonly string[], const S extends readonly string[]>(
  n: N,
  pk: P,
  sk: S,
) {
  return {
    index: `gsi${n}`,
    pk: { field: `gsi${n}pk`, composite: pk, casing: 'none' },
    sk: { field: `gsi${n}sk`, composite: sk, casing: 'none' },
  } as const;
}
