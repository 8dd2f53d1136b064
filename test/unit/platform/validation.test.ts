import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { BadRequestError } from '../../../shared/platform/errors.js';
import { optionalText, requiredText } from '../../../shared/platform/http/plugin-fields.js';
import { parseInput } from '../../../shared/platform/http/validation.js';

const schema = z.strictObject({ name: z.string(), kind: z.enum(['a', 'b']), nested: z.optional(z.strictObject({ n: z.number() })) });

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

  it("words zod's own problems as sentences, never in its notation (issue 48)", () => {
    expect(messageOf({ name: 5, kind: 'a' })).toBe('name: must be text');
    expect(messageOf({ name: 'x', kind: 'c' })).toBe('kind: must be one of "a", "b"');
    const sized = z.strictObject({
      name: z.string().check(z.minLength(1), z.maxLength(200)),
      seats: z.optional(z.number().check(z.int(), z.gte(1), z.lte(1000))),
      tags: z.optional(z.array(z.string()).check(z.maxLength(3))),
      price: z.optional(z.number().check(z.gt(0))),
      email: z.optional(z.email()),
      code: z.optional(z.string().check(z.regex(/^[A-Z]+$/))),
    });
    const problem = (input: unknown) => {
      try {
        parseInput(sized, input);
      } catch (error) {
        return (error as BadRequestError).message;
      }
      throw new Error('expected a failure');
    };
    expect(problem({ name: 'x'.repeat(201) })).toBe('name: must be at most 200 characters');
    expect(problem({ name: '' })).toBe('name: must not be empty');
    expect(problem({ name: 'x', seats: 0 })).toBe('seats: must be at least 1');
    expect(problem({ name: 'x', seats: 1.5 })).toBe('seats: must be a whole number');
    expect(problem({ name: 'x', seats: 1001 })).toBe('seats: must be at most 1000');
    expect(problem({ name: 'x', tags: ['a', 'b', 'c', 'd'] })).toBe('tags: must hold at most 3 items');
    expect(problem({ name: 'x', tags: 'a' })).toBe('tags: must be a list');
    expect(problem({ name: 'x', price: 0 })).toBe('price: must be more than 0');
    expect(problem({ name: 'x', email: 'nope' })).toBe('email: must be an e-mail address');
    expect(problem({ name: 'x', code: 'abc' })).toBe('code: is not in the expected form');
  });

  it('returns the parsed value when valid', () => {
    expect(parseInput(schema, { name: 'x', kind: 'b' })).toEqual({ name: 'x', kind: 'b' });
  });

  it('keeps a message written to stand alone (it names its field first), as the edge fields write them', () => {
    const edge = z.object({ license_key: requiredText('license_key', 8), domain: optionalText('domain', 8) });
    const edgeMessage = (input: unknown) => {
      try {
        parseInput(edge, input);
      } catch (error) {
        return (error as BadRequestError).message;
      }
      throw new Error('expected a failure');
    };
    expect(edgeMessage({})).toBe('license_key is required');
    expect(edgeMessage({ license_key: null })).toBe('license_key is required');
    expect(edgeMessage({ license_key: '  ' })).toBe('license_key is required');
    expect(edgeMessage({ license_key: 42 })).toBe('license_key must be a string');
    expect(edgeMessage({ license_key: 'x'.repeat(9) })).toBe('license_key must be at most 8 characters');
    expect(edgeMessage({ license_key: 'x', domain: ['a'] })).toBe('domain must be a string');
    expect(parseInput(edge, { license_key: ' k ', domain: null, extra: 1 })).toEqual({ license_key: 'k', domain: undefined });
  });
});
