import { describe, expect, it } from 'vitest';
import { guardedLookup, isForbiddenAddress } from '../../shared/webhooks/address-guard.js';

describe('webhook address guard', () => {
  it.each([
    '127.0.0.1', '127.255.0.9', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.1', '100.64.0.1', '100.127.255.254',
    '169.254.169.254', '169.254.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255',
    '::1', '::', 'fd00:ec2::254', 'fc00::1', 'fe80::1', 'ff02::1',
    '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:169.254.169.254', '::ffff:a9fe:a9fe', '::ffff:10.0.0.1', '::127.0.0.1',
    '64:ff9b::a9fe:a9fe', '0:0:0:0:0:ffff:c0a8:0101',
    'localhost', 'not an address',
  ])('refuses %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each(['93.184.215.14', '8.8.8.8', '100.63.255.255', '100.128.0.1', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8', '2a00:1450:4001::200e'])(
    'allows public %s',
    (address) => {
      expect(isForbiddenAddress(address)).toBe(false);
    },
  );

  it('fails a lookup that resolves to a forbidden address, so no connection is made', async () => {
    const result = await new Promise<{ error: Error | null }>((resolve) =>
      guardedLookup('localhost', {}, (error) => resolve({ error })),
    );
    expect(result.error?.message).toMatch(/Address not allowed: (127\.0\.0\.1|::1)/);
  });
});
