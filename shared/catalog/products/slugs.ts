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

/** Candidates for a generated slug: the base first, then numbered suffixes. */
export function* slugCandidates(base: string): Generator<string> {
  yield base;
  for (let n = 2; n <= 20; n++) yield `${base}-${n}`;
}

/** `licensePrefix` default: the slug upper-cased, cut to 8 characters, plus `-`. */
export function defaultLicensePrefix(slug: string): string {
  return `${slug.toUpperCase().slice(0, 8)}-`;
}
