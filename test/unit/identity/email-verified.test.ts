import { describe, expect, it } from 'vitest';
import { isEmailVerified } from '../../../shared/identity/accounts/users.js';

describe('isEmailVerified', () => {
  it('takes the recorded answer when there is one', () => {
    expect(isEmailVerified({ emailVerified: true, passwordHash: 'h' })).toBe(true);
    expect(isEmailVerified({ emailVerified: false, providers: ['google'] })).toBe(false);
  });

  it('reads a user made before verification existed as verified only when a provider made it and it has no password', () => {
    expect(isEmailVerified({ providers: ['github'] })).toBe(true);
    expect(isEmailVerified({ providers: ['github'], passwordHash: 'h' })).toBe(false);
    expect(isEmailVerified({ passwordHash: 'h' })).toBe(false);
    expect(isEmailVerified({})).toBe(false);
  });
});
