import * as z from 'zod/mini';

/**
 * Field rules of the edge and public surfaces, whose messages stand alone (`license_key must be a string`).
 * Plugins send extra fields (site names, versions, environment details), so their schemas ignore unknown
 * fields, unlike `/api`; the fields that are read keep strict types, and `null` for an optional field reads as absent.
 */
export const requiredText = (field: string, max: number) =>
  z
    .string({ error: (issue) => (issue.input === undefined || issue.input === null ? `${field} is required` : `${field} must be a string`) })
    .check(z.trim(), z.minLength(1, `${field} is required`), z.maxLength(max, `${field} must be at most ${max} characters`));

export const optionalText = (field: string, max: number) =>
  z.pipe(
    z.nullish(z.string({ error: `${field} must be a string` }).check(z.trim(), z.maxLength(max, `${field} must be at most ${max} characters`))),
    z.transform((value) => value || undefined),
  );
