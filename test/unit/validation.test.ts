import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BadRequestError } from '../../shared/errors.js';
import { parseInput } from '../../shared/http/validation.js';

const schema = z.strictObject({ name: z.string(), kind: z.enum(['a', 'b']), nested: z.strictObject({ n: z.number() }).optional() });

function messageOf(input: unknown): string {
  try {
    parseInput(schema, input);
  } catch (error) {
    expect(error).toBeInstanceOf(BadRequestError);
    return (error as BadRequestError).message;
  }
  throw new Error('expected a failure');
}

describe('input validation messages', () => {
  it('names a missing field as required, whatever its type', () => {
    expect(messageOf({ kind: 'a' })).toBe('name is required');
    expect(messageOf({ name: 'x' })).toBe('kind is required');
  });

  it('names unknown fields', () => {
    expect(messageOf({ name: 'x', kind: 'a', extra: 1 })).toBe('Unknown field: extra');
  });

  it('prefixes other problems with the field path and never coerces', () => {
    expect(messageOf({ name: 5, kind: 'a' })).toMatch(/^name: /);
    expect(messageOf({ name: 'x', kind: 'c' })).toMatch(/^kind: /);
    expect(messageOf({ name: 'x', kind: 'a', nested: { n: '1' } })).toMatch(/^nested\.n: /);
  });

  it('returns the parsed value when valid', () => {
    expect(parseInput(schema, { name: 'x', kind: 'b' })).toEqual({ name: 'x', kind: 'b' });
  });
});
