import * as z from 'zod/mini';
import { hasIdShape, type IdPrefix } from '../ids.js';
import { lazily } from '../lazily.js';

/**
 * Shared field rules of `/api` and the portal: strings are trimmed of nothing and never coerced from other types. The
 * edge and public surfaces' text fields are in plugin-fields.ts, so that their cold starts build none of these.
 */
export const email = z.email({ message: 'must be a valid e-mail address' }).check(z.maxLength(254));
export const httpUrl = z
  .url({ protocol: /^https?$/, message: 'must be an http(s) URL' })
  .check(z.maxLength(2048));
export const password = z.string().check(z.minLength(8, 'must be at least 8 characters'), z.maxLength(256));

/**
 * A list filter naming an item by id: an unknown id matches nothing, one of another shape is a mistake (400),
 * and an empty one is no filter.
 */
export const idFilter = (prefix: IdPrefix, kind: string) =>
  z.pipe(
    z.string().check(z.refine((value) => value === '' || hasIdShape(prefix, value), `must be a ${kind} id`)),
    z.transform((value) => value || undefined),
  );

export const MAX_PER_PAGE = 100;
export const DEFAULT_PER_PAGE = 20;

const wholeNumber = (name: string) =>
  z.pipe(z.string().check(z.regex(/^\d+$/, `${name} must be a whole number`)), z.transform(Number));

/**
 * `page` ≥ 1 (else 400), `per_page` 1–100 (larger values clamp to 100). Built by the first list route's schema, not when
 * the module loads (the route schemas are built on first use: functions/management/route.ts).
 */
export const paginationQuery = lazily(() => ({
  page: z.pipe(
    z.optional(wholeNumber('page').check(z.refine((n) => n >= 1, 'page must be at least 1'))),
    z.transform((n) => n ?? 1),
  ),
  per_page: z.pipe(
    z.optional(wholeNumber('per_page').check(z.refine((n) => n >= 1, 'per_page must be at least 1'))),
    z.transform((n) => Math.min(n ?? DEFAULT_PER_PAGE, MAX_PER_PAGE)),
  ),
}));
