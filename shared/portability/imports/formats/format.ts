import type { RowResult } from '../rows.js';

/** How one supported export is read: the whole file's rows, each a license, an ignored row or a bad row. */
export type ImportFormat = { read(text: string): RowResult[] };
