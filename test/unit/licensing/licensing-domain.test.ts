import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/platform/errors.js';
import { normalizeDomain } from '../../../shared/licensing/operations/domain.js';

describe('normalizeDomain', () => {
  it.each([
    ['https://WWW.Example.com:8080/x', 'example.com'],
    ['example.com', 'example.com'],
    ['Example.COM.', 'example.com'],
    ['http://shop.example.com/path?q=1#top', 'shop.example.com'],
    ['www.example.co.uk', 'example.co.uk'],
    ['//cdn.example.com/a', 'cdn.example.com'],
    ['  example.com  ', 'example.com'],
    ['https://user:pw@example.com', 'example.com'],
    ['localhost:8080', 'localhost'],
    ['https://bücher.example', 'xn--bcher-kva.example'],
    ['http://192.168.1.10:8080/wp', '192.168.1.10'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeDomain(input)).toBe(expected);
  });

  it.each(['', '   ', 'https://', 'http://exa mple.com', 'https://:80/'])('refuses %j with a 400', (input) => {
    const error = (() => {
      try {
        normalizeDomain(input);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).statusCode).toBe(400);
    expect((error as AppError).message).toMatch(/^domain /);
  });
});

describe('normalizeDomain host name limits (DNS, and a DynamoDB key)', () => {
  const label = (n: number) => 'a'.repeat(n);
  // 4 labels of 62 and one of 1: 62 * 4 + 4 dots + 1 = 253 characters.
  const longest = [label(62), label(62), label(62), label(62), 'b'].join('.');

  it('accepts 253 characters and labels of 63, wherever the path makes the input long', () => {
    expect(longest).toHaveLength(253);
    expect(normalizeDomain(longest)).toBe(longest);
    expect(normalizeDomain(`${label(63)}.com`)).toBe(`${label(63)}.com`);
    expect(normalizeDomain(`https://example.com/${'p'.repeat(2000)}`)).toBe('example.com');
  });

  it.each([
    ['254 characters', `${longest}b`, 'domain must be a host name of at most 253 characters'],
    ['a 2,000-character host', `${'a.'.repeat(999)}io`, 'domain must be a host name of at most 253 characters'],
    ['a label of 64', `${label(64)}.com`, 'domain must not have a label longer than 63 characters'],
    ['a label that punycode makes longer than 63', `${'ü'.repeat(60)}.com`, 'domain must not have a label longer than 63 characters'],
  ])('refuses %s with a 400', (_label, input, message) => {
    expect(() => normalizeDomain(input)).toThrow(message);
    try {
      normalizeDomain(input);
    } catch (error) {
      expect((error as AppError).statusCode).toBe(400);
    }
  });

  it('names the field it was given', () => {
    expect(() => normalizeDomain(`${label(64)}.com`, 'site')).toThrow(/^site must not have a label/);
  });
});

