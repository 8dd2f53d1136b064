import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../../../shared/platform/errors.js';
import { checkIdShape } from '../../../shared/platform/http/id-kind.js';
import { hasIdShape, hasPublicKeyShape, ID_PREFIXES, newId, randomBase32 } from '../../../shared/platform/ids.js';

describe('id shapes', () => {
  it('accepts every id newId makes, for its own prefix only', () => {
    for (const prefix of ID_PREFIXES) {
      const id = newId(prefix);
      expect(hasIdShape(prefix, id)).toBe(true);
      for (const other of ID_PREFIXES.filter((p) => p !== prefix)) expect(hasIdShape(other, id)).toBe(false);
    }
  });

  it.each([
    ['no prefix', 'abcdefghijklmnopqrstuvwx'],
    ['a prefix without the underscore', 'prdabcdefghijklmnopqrstuvwx'],
    ['one character short', `prd_${'a'.repeat(23)}`],
    ['one character long', `prd_${'a'.repeat(25)}`],
    ['upper case', `prd_${'A'.repeat(24)}`],
    ['digits outside base32', `prd_${'0189'.repeat(6)}`],
    ['a trailing newline', `prd_${'a'.repeat(24)}\n`],
    ['5,000 characters', `prd_${'a'.repeat(4996)}`],
    ['empty', ''],
  ])('refuses %s', (_label, value) => {
    expect(hasIdShape('prd', value)).toBe(false);
  });

  it('knows public keys: pk_ and 32 lowercase base32 characters', () => {
    expect(hasPublicKeyShape(`pk_${randomBase32(20)}`)).toBe(true);
    for (const value of ['pk_unknown', `pk_${randomBase32(20).toUpperCase()}`, `sk_${randomBase32(20)}`, `pk_${randomBase32(25)}`]) {
      expect(hasPublicKeyShape(value)).toBe(false);
    }
  });

  it('answers an id of another shape as its kind answers an unknown id', () => {
    const kind = { prefix: 'prd' as const, unknown: () => new NotFoundError('Product not found') };
    expect(() => checkIdShape(kind, 'cus_aaaaaaaaaaaaaaaaaaaaaaaa')).toThrow(new NotFoundError('Product not found'));
    expect(() => checkIdShape(kind, newId('prd'))).not.toThrow();
  });
});
