import { describe, expect, it } from 'vitest';
import { isBinary, readable } from '../../../shared/portability/imports/readable.js';

/** What an import says to a person holds no bytes they cannot read (issue 48). */
describe('readable import messages', () => {
  it('names a quoted value with unreadable characters instead of showing it, and keeps readable ones', () => {
    expect(readable('customer e-mail "a\u0000\uFFFDb@x" is not a valid e-mail address')).toBe('customer e-mail a value with unreadable characters is not a valid e-mail address');
    expect(readable('plan "pro" is not a plan of this product')).toBe('plan "pro" is not a plan of this product');
    expect(readable('The file has no license_key column (its header reads: PK\u0003\u0004\u0014)')).toBe('The file has no license_key column (its header reads: PK)');
  });

  it('tells a binary file (a NUL byte near its start) from text, accents included', () => {
    expect(isBinary('PK\u0003\u0004\u0014\u0000\u0008')).toBe(true);
    expect(isBinary('license_key,customer_email\nKEY-1,zoë@example.com\n')).toBe(false);
  });
});
