import { randomBase32 } from '../../platform/index.js';

/** A URL-safe slug from a name: lower-case ASCII letters and digits joined by single hyphens. */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug || 'product';
}

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Random suffixes tried once the numbered ones are taken (a deployment's many accounts all naming a product "Pro"). */
const RANDOM_SUFFIX_TRIES = 5;

/**
 * Candidates for a generated slug: the base first, then numbered suffixes up to 20, then random ones (8 characters,
 * the base cut so the slug stays within 64): a generated slug is never refused for being taken.
 */
export function* slugCandidates(base: string): Generator<string> {
  yield base;
  for (let n = 2; n <= 20; n++) yield `${base}-${n}`;
  const stem = base.slice(0, 55).replace(/-+$/, '');
  for (let n = 0; n < RANDOM_SUFFIX_TRIES; n++) yield `${stem}-${randomBase32(5)}`;
}

/** `licensePrefix` default: the slug upper-cased, cut to 8 characters, plus `-`. */
export function defaultLicensePrefix(slug: string): string {
  return `${slug.toUpperCase().slice(0, 8)}-`;
}
