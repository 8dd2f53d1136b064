import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { addressNetwork, clientAddress, clientNetwork } from '../../../shared/platform/http/client-address.js';
import type { HttpEvent } from '../../../shared/platform/http/types.js';

const TOKEN = 'Zq3x9MzYbT4dW7kPvN2rL8sHcJ5fGaE1';
const CLOUDFRONT_EDGE = '130.176.0.1';

function request(headers: Record<string, string>): HttpEvent {
  return {
    version: '2.0',
    routeKey: 'ANY /v1/{proxy+}',
    rawPath: '/v1/licenses/validate',
    rawQueryString: '',
    headers,
    requestContext: {
      accountId: 'test', apiId: 'test', domainName: 'abc.execute-api.eu-west-1.amazonaws.com', domainPrefix: 'abc',
      http: { method: 'POST', path: '/v1/licenses/validate', protocol: 'HTTP/1.1', sourceIp: CLOUDFRONT_EDGE, userAgent: 'test' },
      requestId: 'test', routeKey: 'ANY /v1/{proxy+}', stage: '$default', time: '', timeEpoch: 0,
    },
    isBase64Encoded: false,
  };
}
const viaCloudFront = (viewer: string, token = TOKEN) => request({ 'x-origin-verify': token, 'cloudfront-viewer-address': viewer });

describe('clientAddress', () => {
  it.each([
    ['198.51.100.10:46532', '198.51.100.10'],
    ['198.51.100.10', '198.51.100.10'],
    ['2001:db8:3333:4444:5555:6666:7777:8888:46532', '2001:db8:3333:4444:5555:6666:7777:8888'],
    ['2001:db8::1:443', '2001:db8::1'],
    ['[2001:db8::1]:46532', '2001:db8::1'],
    ['[2001:db8::1]', '2001:db8::1'],
    [' 203.0.113.7:1 ', '203.0.113.7'],
  ])('takes the viewer from cloudfront-viewer-address %s on a request with the origin secret', (viewer, expected) => {
    expect(clientAddress(viaCloudFront(viewer), { originVerifyToken: TOKEN })).toBe(expected);
  });

  it('keeps the connection address when the origin secret is wrong, missing or not configured', () => {
    const viewer = '198.51.100.10:46532';
    expect(clientAddress(viaCloudFront(viewer, 'guessed'), { originVerifyToken: TOKEN })).toBe(CLOUDFRONT_EDGE);
    expect(clientAddress(viaCloudFront(viewer, `${TOKEN}x`), { originVerifyToken: TOKEN })).toBe(CLOUDFRONT_EDGE);
    expect(clientAddress(viaCloudFront(viewer, ''), { originVerifyToken: TOKEN })).toBe(CLOUDFRONT_EDGE);
    expect(clientAddress(request({ 'cloudfront-viewer-address': viewer }), { originVerifyToken: TOKEN })).toBe(CLOUDFRONT_EDGE);
    expect(clientAddress(viaCloudFront(viewer), {})).toBe(CLOUDFRONT_EDGE);
  });

  it.each(['', 'unknown', '999.1.1.1:80', '[198.51.100.10]:80', '[not-an-address]:1', '198.51.100.10:46532,203.0.113.7:1'])(
    'keeps the connection address when the verified viewer address %j cannot be read',
    (viewer) => {
      expect(clientAddress(viaCloudFront(viewer), { originVerifyToken: TOKEN })).toBe(CLOUDFRONT_EDGE);
    },
  );

  it('keeps the connection address of a direct call without CloudFront headers', () => {
    expect(clientAddress(request({}), { originVerifyToken: TOKEN })).toBe(CLOUDFRONT_EDGE);
  });
});

describe('clientNetwork', () => {
  it.each([
    ['198.51.100.10', '198.51.100.10'],
    ['2001:db8:3333:4444:5555:6666:7777:8888', '2001:db8:3333:4444::/64'],
    ['2001:db8:3333:4444::1', '2001:db8:3333:4444::/64'],
    ['2001:0DB8:0:0004:ffff::', '2001:db8:0:4::/64'],
    ['2001:db8::', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['::ffff:198.51.100.10', '198.51.100.10'],
    ['64:ff9b::198.51.100.10', '64:ff9b:0:0::/64'],
    // IPv4-compatible (RFC 4291, deprecated): an IPv6 address like any other, not the IPv4 client an IPv4-mapped one names.
    ['::198.51.100.10', '0:0:0:0::/64'],
  ])('keys %s as %s', (address, network) => {
    expect(addressNetwork(address)).toBe(network);
  });

  it('keys every IPv6 address as ipaddr.js reads it, however it is written', () => {
    const asIpaddrKeys = (address: string) => {
      const parsed = ipaddr.IPv6.parse(address.replace(/%.*$/, ''));
      return parsed.isIPv4MappedAddress() ? parsed.toIPv4Address().toString() : `${parsed.parts.slice(0, 4).map((part) => part.toString(16)).join(':')}::/64`;
    };
    const mapped = fc.ipV4().map((ipv4) => `::ffff:${ipv4}`);
    const written = fc.tuple(fc.oneof(fc.ipV6(), mapped), fc.constantFrom('', '%eth0'), fc.boolean());
    fc.assert(
      fc.property(written, ([address, zone, upper]) => {
        // ipaddr.js reads the IPv4-compatible form (`::a.b.c.d`, RFC 4291's deprecated one) as IPv4-mapped: below.
        fc.pre(!/^::[\d.]+$/.test(address));
        const text = `${upper ? address.toUpperCase() : address}${zone}`;
        expect(addressNetwork(text)).toBe(asIpaddrKeys(text));
      }),
      { numRuns: 2_000 },
    );
  });

  it('gives every address of one /64 the same key, and the next /64 another', () => {
    const keys = ['2001:db8:1:2::1', '2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:db8:1:2:8000::', '2001:DB8:1:2:0:0:0:7'].map(addressNetwork);
    expect(new Set(keys)).toEqual(new Set(['2001:db8:1:2::/64']));
    expect(addressNetwork('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
  });

  it('keys the verified CloudFront viewer, and otherwise the connection', () => {
    expect(clientNetwork(viaCloudFront('[2001:db8:aa:bb:1:2:3:4]:443'), { originVerifyToken: TOKEN })).toBe('2001:db8:aa:bb::/64');
    expect(clientNetwork(viaCloudFront('[2001:db8:aa:bb:1:2:3:4]:443', 'guessed'), { originVerifyToken: TOKEN })).toBe(CLOUDFRONT_EDGE);
  });
});
