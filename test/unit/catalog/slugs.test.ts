import { describe, expect, it } from 'vitest';
import { defaultLicensePrefix, slugCandidates, slugify, SLUG_PATTERN } from '../../../shared/catalog/products/slugs.js';

describe('slugs', () => {
  it('makes URL-safe slugs from names', () => {
    expect(slugify('My Plugin')).toBe('my-plugin');
    expect(slugify('  Crème Brûlée — Pro!! ')).toBe('creme-brulee-pro');
    expect(slugify('***')).toBe('product');
    expect(slugify('a'.repeat(100))).toHaveLength(60);
    for (const name of ['My Plugin', 'x--y', '-lead', 'tail-']) expect(slugify(name)).toMatch(SLUG_PATTERN);
  });

  it('offers numbered candidates after the base', () => {
    const candidates = [...slugCandidates('widget')];
    expect(candidates.slice(0, 3)).toEqual(['widget', 'widget-2', 'widget-3']);
    expect(new Set(candidates).size).toBe(candidates.length);
    // Past -20, random suffixes: a generated slug is not refused on a deployment where many accounts chose the name.
    expect(candidates.slice(19, 21)).toEqual(['widget-20', expect.stringMatching(/^widget-[a-z2-7]{8}$/)]);
    const long = [...slugCandidates('a'.repeat(60))];
    expect(long.every((slug) => slug.length <= 64 && SLUG_PATTERN.test(slug))).toBe(true);
  });

  it('derives the license prefix from the slug: upper-cased, 8 characters, then a hyphen', () => {
    expect(defaultLicensePrefix('my-plugin')).toBe('MY-PLUGI-');
    expect(defaultLicensePrefix('abc')).toBe('ABC-');
  });
});
