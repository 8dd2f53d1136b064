import type { RowResult } from '../rows.js';

/** An import file's bytes as they stream from the bucket. */
export type ImportInput = AsyncIterable<Buffer>;

/**
 * How one supported export is read: its rows, one at a time as the file streams in (a format whose records refer to
 * each other, JSON with its pages, gathers them first), each a license, an ignored row, a skipped row or a bad row.
 */
export type ImportFormat = { read(input: ImportInput): AsyncIterable<RowResult> };

/** What a WordPress user is, as a users file names them: their e-mail, and their name when it has one. */
export type WordPressUser = { email: string; name?: string };

/** The import's parameters that some formats read (DECISIONS §27). */
export type ImportOptions = {
  /** Which licenses a format without a status column reads as expired. */
  now: () => Date;
  /** `edd`: the store's time zone (IANA name), the zone of its local times. */
  timezone?: string;
  /** `edd`: the product of an all-products export to import (its `Product Name`). */
  productName?: string;
  /** `woocommerce`: the WordPress users by id, for the e-mail the export does not have. */
  users?: Map<string, WordPressUser>;
};

/**
 * Whether a file holds JSON (its first character other than whitespace is `{` or `[`) or CSV; the bytes to read
 * it from, the first chunk included.
 */
export async function sniffed(input: ImportInput): Promise<{ json: boolean; bytes: AsyncIterable<Buffer> }> {
  const iterator = input[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let first: string | undefined;
  while (first === undefined) {
    const next = await iterator.next();
    if (next.done) break;
    head.push(next.value);
    first = /[^\s\uFEFF]/.exec(next.value.toString('utf8'))?.[0];
  }
  async function* bytes() {
    yield* head;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  }
  return { json: first === '{' || first === '[', bytes: bytes() };
}
