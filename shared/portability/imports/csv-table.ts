import { Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
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
 * The rows of a CSV file with a header line, read by column name (any order, any case, extra columns ignored), one at
 * a time as the file streams in. A byte-order mark and blank lines are ignored; a row with fewer or more cells than
 * the header keeps the ones it has. `keyColumns`: the columns of which the file must have at least one (its license
 * key), checked on the header.
 */
export async function* csvRows(input: AsyncIterable<Buffer | string> | Iterable<Buffer | string>, keyColumns: readonly string[]): AsyncGenerator<CsvRow> {
  const parser = parse({ bom: true, skip_empty_lines: true, relax_column_count: true, relax_quotes: true });
  const source = Readable.from(input);
  source.on('error', (error) => parser.destroy(error));
  source.pipe(parser);
  let names: string[] | undefined;
  let row = 1;
  try {
    for await (const cells of parser as AsyncIterable<string[]>) {
      if (!names) {
        names = cells.map(normalizeHeader);
        if (!keyColumns.some((column) => names!.includes(column))) {
          throw new FileProblem(`The file has no ${keyColumns.join(' or ')} column (its header reads: ${cells.join(', ').slice(0, 200)})`);
        }
        continue;
      }
      row++;
      const header = names;
      yield { row, values: new Map(header.flatMap((name, column) => (name && cells[column] !== undefined ? [[name, cells[column]!] as const] : []))) };
    }
  } catch (error) {
    if (error instanceof CsvError) throw new FileProblem(`The file is not valid CSV: ${error.message}`);
    throw error;
  } finally {
    source.destroy();
    parser.destroy();
  }
  if (!names) throw new FileProblem('The file is empty');
}

/**
 * A cell as written, without the `'` a spreadsheet-safe export puts before a value that would start a formula (ours,
 * DECISIONS §20; Gumroad's): `'=SUM(…)` reads as `=SUM(…)`.
 */
const withoutFormulaQuote = (value: string) => value.replace(/^'(?=[=+\-@\t\r])/, '');

/** The first of `columns` the row has a non-empty value for. */
export function cell(row: CsvRow, ...columns: string[]): string | undefined {
  for (const column of columns) {
    const raw = row.values.get(column);
    const value = raw === undefined ? undefined : withoutFormulaQuote(raw).trim();
    if (value) return value;
  }
  return undefined;
}
