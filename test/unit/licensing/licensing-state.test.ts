import { describe, expect, it } from 'vitest';
import { licenseProblem } from '../../../shared/licensing/operations/license-state.js';

const now = new Date('2030-06-01T12:00:00.000Z');

describe('licenseProblem', () => {
  it('accepts an active license without expiry or expiring later', () => {
    expect(licenseProblem({ status: 'active' }, now)).toBeUndefined();
    expect(licenseProblem({ status: 'active', expiresAt: '2030-06-01T12:00:01.000Z' }, now)).toBeUndefined();
  });

  it('treats a passed expiresAt as expired before the sweep moves the status', () => {
    expect(licenseProblem({ status: 'active', expiresAt: '2030-06-01T12:00:00.000Z' }, now)).toBe('License has expired');
    expect(licenseProblem({ status: 'active', expiresAt: '2030-06-01T11:59:59+00:00' }, now)).toBe('License has expired');
  });

  it('names each unusable status with its message', () => {
    expect(licenseProblem({ status: 'expired' }, now)).toBe('License has expired');
    expect(licenseProblem({ status: 'suspended' }, now)).toBe('License is suspended');
    expect(licenseProblem({ status: 'revoked', expiresAt: '2000-01-01T00:00:00.000Z' }, now)).toBe('License has been revoked');
  });
});
