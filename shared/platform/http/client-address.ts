import { isIP } from 'node:net';
import { ORIGIN_VERIFY_HEADER, originSecretOf, type OriginSecretConfig } from './front-door.js';
import { header } from './request.js';
import type { HttpEvent } from './types.js';

/**
 * The caller's IP address, for per-address limits and records. Behind the front door (the stack's CloudFront
 * distribution) API Gateway sees CloudFront's address, so the viewer's comes from CloudFront's
 * `cloudfront-viewer-address` header, trusted only on a request that carries CloudFront's secret
 * `x-origin-verify` header (as the front-door middleware read it: `shared/platform/http/front-door.ts`). Anything else
 * (no front door, a forged header) gets the connection's own `sourceIp`.
 */
export function clientAddress(event: HttpEvent, config: OriginSecretConfig): string {
  const throughFrontDoor = originSecretOf(config)?.knows(header(event, ORIGIN_VERIFY_HEADER)) ?? false;
  const fromCloudFront = throughFrontDoor ? viewerAddress(header(event, 'cloudfront-viewer-address')) : undefined;
  return fromCloudFront ?? event.requestContext.http.sourceIp;
}

/**
 * The caller as per-address rate limits count it (DECISIONS §13): an IPv4 address as it is, an IPv6 address by its
 * /64, the network one subscriber is given and picks addresses from at will (2^64 of them: keyed on the full address,
 * each would be a fresh caller). An IPv4-mapped IPv6 address (`::ffff:198.51.100.10`) is the IPv4 client it names.
 */
export function clientNetwork(event: HttpEvent, config: OriginSecretConfig): string {
  return addressNetwork(clientAddress(event, config));
}

/** `clientNetwork` of an address already read: IPv4 as it is, IPv6 as `<first four groups>::/64`. */
export function addressNetwork(address: string): string {
  if (isIP(address) !== 6) return address;
  const groups = ipv6Groups(address);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/**
 * The eight groups of a valid IPv6 address. The URL parser (WHATWG's, built in) validates it and writes it in its
 * canonical form (RFC 5952: `::` for zeros, an IPv4 tail as two groups), so only `::` is left to expand; a zone
 * (`%eth0`) names no other network. It stands in for `ipaddr.js`, whose 12 KB were 2–3 ms of every HTTP function's
 * cold start; test/unit/platform/client-address.test.ts holds the two equal.
 */
function ipv6Groups(address: string): number[] {
  const canonical = new URL(`http://[${address.replace(/%.*$/, '')}]/`).hostname.slice(1, -1);
  const [head, tail] = canonical.split('::') as [string, string | undefined];
  const groups = (text: string | undefined) => (text ? text.split(':').map((group) => parseInt(group, 16)) : []);
  const left = groups(head);
  const right = groups(tail);
  return tail === undefined ? left : [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/**
 * The address in CloudFront's `address:port` value: `198.51.100.10:46532`, or IPv6 with the port after the
 * last colon, `2001:db8::1:46532` (CloudFront always adds the port), or bracketed, `[2001:db8::1]:46532`.
 */
function viewerAddress(value: string | undefined): string | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(text);
  if (bracketed) return isIP(bracketed[1]!) === 6 ? bracketed[1] : undefined;
  const withPort = /^(.+):\d{1,5}$/.exec(text);
  const address = withPort && isIP(withPort[1]!) ? withPort[1]! : text;
  return isIP(address) ? address : undefined;
}
