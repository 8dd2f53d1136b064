import { describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors.js';
import { normalizeDomain } from '../../shared/licensing/domain.js';

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
