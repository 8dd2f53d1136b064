import { RowProblem } from './rows.js';

/**
 * Readers of the values the supported exports write. Each names the column in its message, so a bad row says
 * what to fix: `expires_at: "31/12/2026" is not a date`.
 */

/** ISO 8601, `YYYY-MM-DD`, `YYYY-MM-DD HH:MM[:SS]` (WordPress and Rails exports; UTC unless an offset or `UTC` follows). */
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?))?\s*(Z|UTC|GMT|[+-]\d{2}:?\d{2})?$/i;

/** A timestamp as an ISO string; empty: undefined. Whole numbers of 9 to 11 digits are Unix seconds (EDD 3.6). */
export function timestamp(column: string, raw: string | undefined): string | undefined {
  const value = raw?.trim();
  if (!value) return undefined;
  let millis: number;
  if (/^\d{9,11}$/.test(value)) {
    millis = Number(value) * 1000;
  } else {
    const match = DATE_TIME.exec(value);
    if (!match) throw new RowProblem(`${column}: "${value}" is not a date`);
    const [, day, time, zone] = match;
    const offset = !zone || /^(z|utc|gmt)$/i.test(zone) ? 'Z' : zone.replace(/^([+-]\d{2})(\d{2})$/, '$1:$2');
    millis = Date.parse(`${day}T${time ?? '00:00:00'}${offset}`);
    // Date.parse rolls 2026-02-30 over to March: a date that does not exist is refused.
    if (Number.isNaN(millis) || (!zone && new Date(millis).toISOString().slice(0, 10) !== day)) {
      throw new RowProblem(`${column}: "${value}" is not a date`);
    }
  }
  return new Date(millis).toISOString();
}

/** A whole number ≥ 0; empty: undefined. */
export function count(column: string, raw: string | undefined): number | undefined {
  const value = raw?.trim();
  if (!value) return undefined;
  if (!/^\d{1,9}$/.test(value)) throw new RowProblem(`${column}: "${value}" is not a whole number`);
  return Number(value);
}

/** `1`, `true`, `yes` (any case) are true; empty, `0`, `false`, `no` false. */
export function flag(column: string, raw: string | undefined): boolean {
  const value = raw?.trim().toLowerCase() ?? '';
  if (['1', 'true', 'yes'].includes(value)) return true;
  if (['', '0', 'false', 'no'].includes(value)) return false;
  throw new RowProblem(`${column}: "${raw}" is neither true nor false`);
}

/** A value that must be there. */
export function required(column: string, raw: string | undefined): string {
  const value = raw?.trim();
  if (!value) throw new RowProblem(`${column} is required`);
  return value;
}

/** A value that may be empty: undefined then. */
export const optional = (raw: string | undefined): string | undefined => raw?.trim() || undefined;

/** A status the format maps to ours; anything else names the values it knows. */
export function mapped<T>(column: string, raw: string | undefined, map: Record<string, T>, fallback?: T): T {
  const value = raw?.trim().toLowerCase() ?? '';
  if (value === '' && fallback !== undefined) return fallback;
  const found = map[value];
  if (found === undefined) throw new RowProblem(`${column}: "${raw?.trim()}" is not one of ${Object.keys(map).join(', ')}`);
  return found;
}
