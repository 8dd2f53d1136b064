import * as z from 'zod/mini';
import type { IdPrefix } from '../ids.js';
import { described, named } from './operation.js';

/** Schemas that answers of every surface share. */

export const ErrorBody = named(
  'Error',
  z.object({
    error: z.string(),
    details: z.optional(z.array(z.object({ path: z.string(), message: z.string() }))),
  }),
  'Every error (DECISIONS §2): `error` names the first problem; a validation error lists every problem in `details`.',
);

export const ValidationRefusal = named(
  'ValidationRefusal',
  z.object({ valid: z.literal(false), error: z.string() }),
  'How validate refuses a key, bad input included, with the status of the refusal (400, 404, 429).',
);

/** The fields a signed refusal bound to its request adds (DECISIONS §13); unsigned refusals have none. */
const boundRefusalFields = {
  license_key: z.optional(z.string()),
  domain: z.optional(z.string()),
  /** A request naming a machine in place of a domain (DECISIONS §18). */
  machine: z.optional(z.string()),
};

export const BoundError = named(
  'BoundError',
  z.object({ ...ErrorBody.shape, ...boundRefusalFields }),
  'An error of activate, deactivate or check: signed once the product is known, and then naming the request\'s `license_key` and `domain` (or `machine`).',
);

export const BoundValidationRefusal = named(
  'BoundValidationRefusal',
  z.object({ ...ValidationRefusal.shape, ...boundRefusalFields }),
  'How validate refuses a key, bad input included, with the status of the refusal (400, 404, 429); signed once the product is ' +
    'known, and then naming the request\'s `license_key` and `domain`.',
);

/** Timestamps are ISO 8601 in UTC (`toISOString`). */
export const timestamp = named('Timestamp', z.string().check(z.iso.datetime()), 'An ISO 8601 timestamp in UTC.');
export const nullableTimestamp = z.nullable(timestamp);

/** An id of one kind: its prefix, `_` and 24 characters of `a-z2-7` (DECISIONS §2). */
export const idOf = (prefix: IdPrefix) => z.string().check(z.regex(new RegExp(`^${prefix}_[a-z2-7]{24}$`)));

export const httpUrlOut = z.string().check(z.url());

export const Pagination = named(
  'Pagination',
  z.object({ page: z.number(), perPage: z.number(), total: z.number(), totalPages: z.number() }),
  'Where a page sits in its list (SERVICE-SPEC §4.1).',
);

/** `{items, pagination}`: a page of a management list. */
export const pageOf = <T extends z.core.$ZodType>(id: string, item: T) => named(id, z.object({ items: z.array(item), pagination: Pagination }));

/** Free-form JSON object (customer `metadata`). */
export const jsonObject = described(z.record(z.string(), z.unknown()), 'A JSON object of at most 8 levels and 8 KB.');
