import { RowProblem } from './rows.js';

/**
 * Readers of the values the supported exports write. Each names the column in its message, so a bad row says
 * what to fix: `expires_at: "31/12/2026" is not a date`.
 */

/** ISO 8601, `YYYY-MM-DD`, `YYYY-MM-DD HH:MM[:SS]` (WordPress and Rails exports; UTC unless an offset or `UTC` follows). */
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?))?\s*(Z|UTC|GMT|[+-]\d{2}:?\d{2})?$/i;

const zoneFormats = new Map<string, Intl.DateTimeFormat>();

function zoneFormat(timeZone: string): Intl.DateTimeFormat {
  let format = zoneFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    zoneFormats.set(timeZone, format);
  }
  return format;
}

/** True when `name` is a time zone this runtime knows (an IANA name such as `Europe/Berlin`, or `UTC`). */
export function isTimeZone(name: string): boolean {
  try {
    zoneFormat(name);
    return true;
  } catch {
    return false;
  }
}

/** How far `timeZone`'s clocks are ahead of UTC at the moment `utcMs`. */
function zoneOffsetMs(utcMs: number, timeZone: string): number {
  const parts = Object.fromEntries(zoneFormat(timeZone).formatToParts(new Date(utcMs)).map((part) => [part.type, Number(part.value)]));
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return wall - (utcMs - (((utcMs % 1000) + 1000) % 1000));
}

/** The moment a clock in `timeZone` shows the wall-clock time `wallMs` (that time written as if it were UTC). */
function wallClockToUtc(wallMs: number, timeZone: string): number {
  const first = wallMs - zoneOffsetMs(wallMs, timeZone);
  // Near a change of offset (daylight saving), the offset at the first guess may not be the one in force then.
  return wallMs - zoneOffsetMs(first, timeZone);
}

/**
 * A timestamp as an ISO string; empty: undefined. Whole numbers of 9 to 11 digits are Unix seconds (EDD 3.6).
 * `localZone`: the file writes the store's local time (WordPress: dates and "timestamps" alike are the site's wall
 * clock), in this IANA zone; a value with its own offset keeps it.
 */
export function timestamp(column: string, raw: string | undefined, localZone?: string): string | undefined {
  const value = raw?.trim();
  if (!value) return undefined;
  let millis: number;
  let zoned = false;
  if (/^\d{9,11}$/.test(value)) {
    millis = Number(value) * 1000;
  } else {
    const match = DATE_TIME.exec(value);
    if (!match) throw new RowProblem(`${column}: "${value}" is not a date`);
    const [, day, time, zone] = match;
    zoned = zone !== undefined;
    const offset = !zone || /^(z|utc|gmt)$/i.test(zone) ? 'Z' : zone.replace(/^([+-]\d{2})(\d{2})$/, '$1:$2');
    millis = Date.parse(`${day}T${time ?? '00:00:00'}${offset}`);
    // Date.parse rolls 2026-02-30 over to March: a date that does not exist is refused.
    if (Number.isNaN(millis) || (!zone && new Date(millis).toISOString().slice(0, 10) !== day)) {
      throw new RowProblem(`${column}: "${value}" is not a date`);
    }
  }
  if (localZone && !zoned) millis = wallClockToUtc(millis, localZone);
  return new Date(millis).toISOString();
}

/** A whole number ≥ 0; empty: undefined. */
export function count(column: string, raw: string | undefined): number | undefined {
  const value = raw?.trim();
  if (!value) return undefined;
  if (!/^\d{1,9}$/.test(value)) throw new RowProblem(`${column}: "${value}" is not a whole number`);
  return Number(value);
}

/**
 * An activation limit: a whole number, where `0`, empty, `null` and `Unlimited` (any case; EDD before 3.6) mean no
 * limit (`unlimited`).
 */
export function activationLimit(column: string, raw: string | undefined, unlimited: number): number {
  const value = raw?.trim().toLowerCase();
  if (!value || value === 'unlimited' || value === 'null') return unlimited;
  return count(column, value) || unlimited;
}

/** `1`, `true`, `yes` (any case) are true; empty, `0`, `false`, `no` false. */
export function flag(column: string, raw: string | undefined): boolean {
  const value = raw?.trim().toLowerCase() ?? '';
  if (['1', 'true', 'yes'].includes(value)) return true;
  if (['', '0', 'false', 'no'].includes(value)) return false;
  throw new RowProblem(`${column}: "${raw}" is neither true nor false`);
}

/**
 * A list of feature keys as our exports write it: a JSON array of strings (`["reports","sso"]`), or keys separated by
 * `,` or `;`; empty: undefined (the plan's features).
 */
export function featureKeys(column: string, raw: string | undefined): string[] | undefined {
  const value = raw?.trim();
  if (!value) return undefined;
  if (!value.startsWith('[')) return value.split(/[,;]/).map((key) => key.trim()).filter(Boolean);
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new RowProblem(`${column}: "${value}" is not a list of feature keys`);
  }
  if (!Array.isArray(parsed) || !parsed.every((key) => typeof key === 'string')) throw new RowProblem(`${column}: "${value}" is not a list of feature keys`);
  return parsed;
}

/** A value that must be there. */
export function required(column: string, raw: string | undefined): string {
  const value = raw?.trim();
  if (!value) throw new RowProblem(`${column} is required`);
  return value;
}

/** A value that may be empty: undefined then. */
export const optional = (raw: string | undefined): string | undefined => raw?.trim() || undefined;

/** PHP's `stripslashes`: WordPress stores some text with `addslashes` applied (`O\'Brien`), and exports it so. */
export const unslashed = (value: string | undefined): string | undefined => value?.replace(/\\(.?)/g, '$1');

/** A status the format maps to ours; anything else names the values it knows. */
export function mapped<T>(column: string, raw: string | undefined, map: Record<string, T>, fallback?: T): T {
  const value = raw?.trim().toLowerCase() ?? '';
  if (value === '' && fallback !== undefined) return fallback;
  const found = map[value];
  if (found === undefined) throw new RowProblem(`${column}: "${raw?.trim()}" is not one of ${Object.keys(map).join(', ')}`);
  return found;
}
