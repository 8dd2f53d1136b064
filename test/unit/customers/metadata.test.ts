import { describe, expect, it } from 'vitest';
import { metadataSchema, nestsAtMost } from '../../../shared/customers/metadata.js';

const nest = (levels: number, inner: unknown = 1): unknown => {
  let value = inner;
  for (let i = 0; i < levels; i++) value = { next: value };
  return value;
};
const nestArrays = (levels: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = [value];
  return value;
};

describe('nesting depth', () => {
  it('counts objects and arrays as levels', () => {
    expect(nestsAtMost({}, 1)).toBe(true);
    expect(nestsAtMost({ a: 1 }, 1)).toBe(true);
    expect(nestsAtMost({ a: { b: 1 } }, 1)).toBe(false);
    expect(nestsAtMost({ a: [1] }, 2)).toBe(true);
    expect(nestsAtMost({ a: [[1]] }, 2)).toBe(false);
    expect(nestsAtMost(nest(8), 8)).toBe(true);
    expect(nestsAtMost(nest(9), 8)).toBe(false);
    expect(nestsAtMost('text', 0)).toBe(true);
  });

  it('finds the deep branch among shallow ones', () => {
    expect(nestsAtMost({ wide: Array.from({ length: 1000 }, (_, i) => ({ i })), deep: nest(8) }, 8)).toBe(false);
  });

  it('checks 100,000 levels without recursion, quickly', () => {
    const started = performance.now();
    expect(nestsAtMost(nest(100_000), 8)).toBe(false);
    expect(nestsAtMost(nestArrays(100_000), 8)).toBe(false);
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('metadata schema', () => {
  it('refuses deep metadata with the depth message, without measuring its size (JSON.stringify would recurse)', () => {
    const result = metadataSchema.safeParse({ deep: nestArrays(300_000) });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual(['must nest at most 8 levels']);
  });

  it('still measures metadata of allowed depth', () => {
    expect(metadataSchema.safeParse(nest(7, 'x'.repeat(8000))).success).toBe(true);
    expect(metadataSchema.safeParse(nest(7, 'x'.repeat(8200))).success).toBe(false);
  });
});
