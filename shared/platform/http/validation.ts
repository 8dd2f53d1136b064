import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';
import { BadRequestError } from '../errors.js';

// zod/mini loads no locale: without English, every message zod writes itself (`Too big: …`) would be `Invalid input`.
// The one locale file, not `z.locales.en`, which would bundle all of them (260 KB).
z.config(en());

type Detail = { path: string; message: string };

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
  return { path, message: path ? `${path}: ${issue.message}` : issue.message };
}

/** Parses with a zod schema; failures become a 400 whose `error` names the first problem. */
export function parseInput<S extends z.core.$ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = z.safeParse(schema, input);
  if (result.success) return result.data;
  const details = result.error.issues.map((issue) => describe(issue, input));
  throw new BadRequestError(details[0]?.message ?? 'Invalid request', details);
}
