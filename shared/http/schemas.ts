import { z } from 'zod';

/** Shared field rules: strings are trimmed of nothing and never coerced from other types. */
export const email = z.email({ message: 'must be a valid e-mail address' }).max(254);
export const httpUrl = z
  .url({ protocol: /^https?$/, message: 'must be an http(s) URL' })
  .max(2048);
export const password = z.string().min(8, 'must be at least 8 characters').max(256);

export const MAX_PER_PAGE = 100;
export const DEFAULT_PER_PAGE = 20;

const wholeNumber = (name: string) =>
  z
    .string()
    .regex(/^\d+$/, `${name} must be a whole number`)
    .transform(Number);

/** `page` ≥ 1 (else 400), `per_page` 1–100 (larger values clamp to 100). */
export const paginationQuery = {
  page: wholeNumber('page')
    .refine((n) => n >= 1, 'page must be at least 1')
    .optional()
    .transform((n) => n ?? 1),
  per_page: wholeNumber('per_page')
    .refine((n) => n >= 1, 'per_page must be at least 1')
    .optional()
    .transform((n) => Math.min(n ?? DEFAULT_PER_PAGE, MAX_PER_PAGE)),
};
