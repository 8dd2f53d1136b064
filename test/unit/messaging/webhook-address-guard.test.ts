import { describe, expect, it } from 'vitest';
import { guardedLookup, isForbiddenAddress } from '../../../shared/messaging/webhooks/address-guard.js';

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

  it.each(['fec0::1', 'fed0::1', 'feff:ffff::1'])('refuses the deprecated site-local %s (fec0::/10)', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each(['93.184.215.14', '8.8.8.8', '100.63.255.255', '100.128.0.1', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8', '2a00:1450:4001::200e'])(
    'allows public %s',
    (address) => {
      expect(isForbiddenAddress(address)).toBe(false);
    },
  );

  describe.each([
    {
      form: 'IPv4-mapped (::ffff:0:0/96)',
      private: ['::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:192.168.1.1', '::ffff:c0a8:101', '0:0:0:0:0:ffff:a00:1', '::FFFF:A9FE:A9FE'],
      public: ['::ffff:8.8.8.8', '::ffff:808:808', '::ffff:5db8:d70e'],
    },
    {
      form: 'NAT64 (64:ff9b::/96)',
      private: ['64:ff9b::127.0.0.1', '64:ff9b::7f00:1', '64:ff9b::10.0.0.1', '64:ff9b::c0a8:101', '64:ff9b::a9fe:a9fe'],
      public: ['64:ff9b::8.8.8.8', '64:ff9b::808:808', '64:ff9b::5db8:d70e'],
    },
    {
      form: '6to4 (2002::/16, IPv4 in bits 16-47)',
      private: ['2002:7f00:1::', '2002:7f00:0001:0:0:0:0:1', '2002:a00:1::1', '2002:c0a8:101:1::1', '2002:a9fe:a9fe::', '2002::1'],
      public: ['2002:808:808::1', '2002:5db8:d70e:1::1'],
    },
    {
      form: 'local-use NAT64 (64:ff9b:1::/48), refused whole',
      private: ['64:ff9b:1::808:808', '64:ff9b:1::7f00:1', '64:ff9b:1:ffff:ffff:ffff:ffff:ffff'],
      public: [],
    },
    {
      form: 'IPv4-translated (SIIT, ::ffff:0:0:0/96), refused whole',
      private: ['::ffff:0:127.0.0.1', '::ffff:0:7f00:1', '::ffff:0:a9fe:a9fe', '0:0:0:0:ffff:0:c0a8:101', '::ffff:0:8.8.8.8'],
      public: [],
    },
    {
      form: 'Teredo (2001::/32, an IPv4 server and an obfuscated client address), refused whole',
      private: ['2001::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2', '2001:0:ffff:ffff:ffff:ffff:ffff:ffff'],
      public: ['2001:4860:4860::8888', '2001:1::1', '2001:db9::1'],
    },
  ])('IPv4 addresses in IPv6 form: $form', ({ private: refused, public: allowed }) => {
    it.each(refused)('refuses %s', (address) => {
      expect(isForbiddenAddress(address)).toBe(true);
    });
    it.each(allowed)('allows %s', (address) => {
      expect(isForbiddenAddress(address)).toBe(false);
    });
  });

  it('fails a lookup that resolves to a forbidden address, so no connection is made', async () => {
    const result = await new Promise<{ error: Error | null }>((resolve) =>
      guardedLookup('localhost', {}, (error) => resolve({ error })),
    );
    expect(result.error?.message).toMatch(/Address not allowed: (127\.0\.0\.1|::1)/);
  });
});
