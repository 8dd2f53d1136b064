import { z } from 'zod';
import { BadRequestError } from '../../shared/errors.js';

/**
 * Input rules of the edge and public surfaces. Plugins send extra fields (site names, versions,
 * environment details), so unknown fields are ignored here, unlike on `/api`; the fields that are
 * read keep strict types, and `null` for an optional field reads as absent.
 */
export const requiredText = (field: string, max: number) =>
  z
    .string({ error: (issue) => (issue.input === undefined || issue.input === null ? `${field} is required` : `${field} must be a string`) })
    .trim()
    .min(1, `${field} is required`)
    .max(max, `${field} must be at most ${max} characters`);

export const optionalText = (field: string, max: number) =>
  z
    .string({ error: `${field} must be a string` })
    .trim()
    .max(max, `${field} must be at most ${max} characters`)
    .nullish()
    .transform((value) => value || undefined);

/** Parses with a zod schema; the first problem is the 400's `error` (the messages name their field). */
export function parseEdgeInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const details = result.error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
  throw new BadRequestError(details[0]?.message ?? 'Invalid request', details);
}
