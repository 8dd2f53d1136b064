import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';

/** IPv4 ranges no webhook may reach: this host, private networks, CGNAT, link-local (cloud metadata), multicast, reserved. */
const FORBIDDEN_V4: [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];

/** IPv6 ranges: unspecified, loopback, unique-local (holds fd00:ec2::254), link-local, multicast. */
const FORBIDDEN_V6: [string, number][] = [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
];

function v4Bytes(address: string): number[] {
  return address.split('.').map(Number);
}

/** The 16 bytes of an IPv6 address, including `::` and a dotted IPv4 tail. */
function v6Bytes(address: string): number[] {
  let text = address.split('%')[0]!;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = v4Bytes(dotted[1]!);
    text = text.slice(0, dotted.index) + `${((a! << 8) | b!).toString(16)}:${((c! << 8) | d!).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const parts = (s: string) => (s ? s.split(':') : []);
  const left = parts(head);
  const right = tail === undefined ? [] : parts(tail);
  const groups = [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return groups.flatMap((g) => {
    const n = parseInt(g, 16);
    return [n >> 8, n & 0xff];
  });
}

function inRange(bytes: number[], base: number[], prefixLength: number): boolean {
  for (let bit = 0; bit < prefixLength; bit++) {
    const mask = 0x80 >> bit % 8;
    if ((bytes[bit >> 3]! & mask) !== (base[bit >> 3]! & mask)) return false;
  }
  return true;
}

const isZero = (bytes: number[]) => bytes.every((b) => b === 0);

/** The IPv4 address an IPv6 address stands for: mapped (::ffff:a.b.c.d), compatible (::a.b.c.d) or NAT64 (64:ff9b::/96). */
function embeddedV4(bytes: number[]): number[] | undefined {
  const head = bytes.slice(0, 12);
  const mapped = isZero(head.slice(0, 10)) && head[10] === 0xff && head[11] === 0xff;
  const compatible = isZero(head) && !isZero(bytes.slice(12, 14));
  const nat64 = inRange(bytes, v6Bytes('64:ff9b::'), 96);
  return mapped || compatible || nat64 ? bytes.slice(12) : undefined;
}

/** True for an address a webhook must not reach; anything that is not an IP address is refused too. */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address.split('%')[0]!);
  if (family === 4) return FORBIDDEN_V4.some(([base, length]) => inRange(v4Bytes(address), v4Bytes(base), length));
  if (family !== 6) return true;
  const bytes = v6Bytes(address);
  const v4 = embeddedV4(bytes);
  if (v4) return FORBIDDEN_V4.some(([base, length]) => inRange(v4, v4Bytes(base), length));
  return FORBIDDEN_V6.some(([base, length]) => inRange(bytes, v6Bytes(base), length));
}

export class ForbiddenAddressError extends Error {
  readonly code = 'EADDRNOTALLOWED';
  constructor(address: string) {
    super(`Address not allowed: ${address}`);
  }
}

/**
 * A DNS lookup for an http(s) agent that refuses forbidden addresses. The connection uses exactly the
 * addresses checked here, so a name that resolves differently at send time (DNS rebinding) cannot pass.
 */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 0);
    const refused = addresses.find((a) => isForbiddenAddress(a.address));
    if (refused) return callback(new ForbiddenAddressError(refused.address), '', 0);
    if (options.all) return (callback as unknown as (e: null, all: LookupAddress[]) => void)(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
};
