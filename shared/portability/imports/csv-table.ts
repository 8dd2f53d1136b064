import { CsvError, parse } from 'csv-parse/sync';
import { FileProblem } from './file-problem.js';

/** `License Key`, `license_key` and `Purchase Time (UTC timezone)` read as `license_key` and `purchase_time_utc_timezone`. */
export const normalizeHeader = (name: string) =>
  name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');

/** One data row: its number as a spreadsheet shows it (the header is row 1) and its values by normalized column name. */
export type CsvRow = { row: number; values: Map<string, string> };

/**
 * The rows of a CSV file with a header line, read by column name (any order, any case, extra columns ignored).
 * A byte-order mark and blank lines are ignored; a row with fewer or more cells than the header keeps the ones it has.
 * `keyColumns`: the columns of which the file must have at least one (its license key), checked on the header.
 */
export function csvRows(text: string, keyColumns: readonly string[]): CsvRow[] {
  let records: string[][];
  try {
    records = parse(text, { bom: true, skip_empty_lines: true, relax_column_count: true, relax_quotes: true });
  } catch (error) {
    if (error instanceof CsvError) throw new FileProblem(`The file is not valid CSV: ${error.message}`);
    throw error;
  }
  const [header, ...rows] = records;
  if (!header) throw new FileProblem('The file is empty');
  const names = header.map(normalizeHeader);
  if (!keyColumns.some((column) => names.includes(column))) {
    throw new FileProblem(`The file has no ${keyColumns.join(' or ')} column (its header reads: ${header.join(', ').slice(0, 200)})`);
  }
  return rows.map((cells, index) => ({
    row: index + 2,
    values: new Map(names.flatMap((name, column) => (name && cells[column] !== undefined ? [[name, cells[column]!] as const] : []))),
  }));
}

/** The first of `columns` the row has a non-empty value for. */
export function cell(row: CsvRow, ...columns: string[]): string | undefined {
  for (const column of columns) {
    const value = row.values.get(column)?.trim();
    if (value) return value;
  }
  return undefined;
}
