import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';
import { BadRequestError } from '../errors.js';

// zod/mini loads no locale: without English, every message zod writes itself would be `Invalid input`. The one locale
// file, not `z.locales.en`, which would bundle all of them (260 KB); `inWords` words the usual problems first, so that
// zod's own notation (`Too big: expected string to have <=200 characters`) never reaches a person.
z.config({ ...en(), customError: (issue) => inWords(issue) });

type Detail = { path: string; message: string };

/** How a value of each type is named in a sentence. */
const TYPE_NAMES: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  date: 'a date',
  file: 'a file',
};
/** What a size counts, per kind of value. */
const UNITS: Record<string, string> = { string: 'characters', array: 'items', set: 'items', file: 'bytes' };
const FORMATS: Record<string, string> = {
  email: 'an e-mail address',
  url: 'a URL',
  datetime: 'a date and time (ISO 8601, e.g. 2025-01-31T12:00:00Z)',
  date: 'a date (YYYY-MM-DD)',
  uuid: 'a UUID',
};

/** The bound of a size or magnitude check in words: "at most 200 characters", "more than 0". */
function bound(issue: { origin?: string; exact?: boolean; inclusive?: boolean }, limit: unknown, above: boolean): string {
  const unit = UNITS[issue.origin ?? ''];
  const how = issue.exact ? 'exactly' : issue.inclusive === false ? (above ? 'less than' : 'more than') : above ? 'at most' : 'at least';
  const amount = `${how} ${String(limit)}${unit ? ` ${unit}` : ''}`;
  return unit && issue.origin !== 'string' ? `must hold ${amount}` : `must be ${amount}`;
}

/**
 * zod's own problems, as the end of a sentence whose subject is the field ("must be at most 200 characters"); undefined
 * for what is worded elsewhere (a message the schema gives, unknown fields, a missing field).
 */
function inWords(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${TYPE_NAMES[issue.expected] ?? issue.expected}`;
    case 'invalid_value':
      return issue.values.length === 1 ? `must be ${JSON.stringify(issue.values[0])}` : `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'too_big':
      return bound(issue, issue.maximum, true);
    case 'too_small':
      return issue.origin === 'string' && issue.minimum === 1 && issue.inclusive !== false ? 'must not be empty' : bound(issue, issue.minimum, false);
    case 'invalid_format':
      return issue.format === 'regex' ? 'is not in the expected form' : `must be ${FORMATS[issue.format] ?? `a valid ${issue.format}`}`;
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`;
    case 'invalid_union':
      return 'is not one of the accepted forms';
    case 'invalid_element':
    case 'invalid_key':
      return 'holds a value that is not accepted';
    default:
      return undefined;
  }
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  return path.reduce<unknown>((value, key) => (value && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined), input);
}

/**
 * A message written to stand alone names its field first (`license_key must be a string`) and is kept as
 * written; other problems are `<field> is required`, `Unknown field: <name>` or `<field>: <reason>`.
 */
function describe(issue: z.core.$ZodIssue, input: unknown): Detail {
  const path = issue.path.map(String).join('.');
  if (path && issue.message.startsWith(`${path} `)) return { path, message: issue.message };
  if (issue.code === 'unrecognized_keys') {
    return { path, message: `Unknown field${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}` };
  }
  if ((issue.code === 'invalid_type' || issue.code === 'invalid_value') && path && valueAt(input, issue.path) === undefined) {
    return { path, message: `${path} is required` };
  }
  if (!path) return { path, message: issue.code === 'invalid_type' ? 'Request body must be a JSON object' : issue.message };
  return { path, message: `${path}: ${issue.message}` };
}

/** Parses with a zod schema; failures become a 400 whose `error` names the first problem. */
export function parseInput<S extends z.core.$ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = z.safeParse(schema, input);
  if (result.success) return result.data;
  const details = result.error.issues.map((issue) => describe(issue, input));
  throw new BadRequestError(details[0]?.message ?? 'Invalid request', details);
}
