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

  it("words zod's own messages in English (zod/mini loads no locale by itself)", () => {
    expect(messageOf({ name: 5, kind: 'a' })).toBe('name: Invalid input: expected string, received number');
    expect(messageOf({ name: 'x', kind: 'c' })).toBe('kind: Invalid option: expected one of "a"|"b"');
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
