import { describe, expect, it } from 'vitest';
import { csvLines } from '../../../shared/portability/exports/export-formats.js';
import { cell, csvRows } from '../../../shared/portability/imports/csv-table.js';

const FORMULA_STARTS = ['=', '+', '-', '@', '\t', '\r'];

async function rowsOf(text: string) {
  const rows = [];
  for await (const row of csvRows([Buffer.from(text)], ['name'])) rows.push(row);
  return rows;
}

describe('CSV cells that a spreadsheet would run as a formula (DECISIONS §20)', () => {
  it('are written by exports with a leading quote, whatever starts them, and no other cell is', () => {
    const values = FORMULA_STARTS.map((start) => `${start}SUM(A1)`);
    const text = csvLines([['name'], ...values.map((value) => [value]), ['plain'], ['a=b'], ['5']]).toString('utf8');
    for (const value of values) expect(text).toContain(`'${value}`);
    expect(text).toContain('\nplain\na=b\n5\n');
    expect(text).not.toMatch(/(^|\n)"?[=+\-@]/);
  });

  it('are read back by the csv import as they were', async () => {
    const values = [...FORMULA_STARTS.map((start) => `${start}SUM(A1)`), "'quoted on purpose", 'plain'];
    const rows = await rowsOf(csvLines([['name'], ...values.map((value) => [value])]).toString('utf8'));
    // A cell is trimmed as it is read: a leading tab or return goes with the whitespace.
    expect(rows.map((row) => cell(row, 'name'))).toEqual(values.map((value) => value.trim()));
  });
});
