/** A page of a list (SERVICE-SPEC §4.1): `{items, pagination: {page, perPage, total, totalPages}}`. */
export type Page<T> = { items: T[]; pagination: { page: number; perPage: number; total: number; totalPages: number } };

export function pageOf<T>(items: T[], page: number, perPage: number, total: number): Page<T> {
  return { items, pagination: { page, perPage, total, totalPages: Math.ceil(total / perPage) } };
}

/** Slices an in-memory list: for small, bounded collections such as a tenant's products. */
export function paginateInMemory<T>(all: T[], page: number, perPage: number): Page<T> {
  return pageOf(all.slice((page - 1) * perPage, page * perPage), page, perPage, all.length);
}
