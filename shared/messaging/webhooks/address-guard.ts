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

/**
 * IPv6 ranges: unspecified, loopback, unique-local (holds fd00:ec2::254), link-local, the deprecated site-local
 * (which older stacks still route locally), multicast, and three that carry an IPv4 address somewhere a
 * translator or relay of the network decides: local-use NAT64 (RFC 8215), IPv4-translated (SIIT, RFC 6145) and
 * Teredo (RFC 4380, whose client address is obfuscated). Those are refused whole: no webhook receiver needs them.
 */
const FORBIDDEN_V6: [string, number][] = [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['64:ff9b:1::', 48],
  ['::ffff:0:0:0', 96],
  ['2001::', 32],
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

/**
 * IPv6 forms that reach an IPv4 address, with where that address sits: IPv4-mapped (::ffff:0:0/96, also
 * written in hex, ::ffff:7f00:1), well-known NAT64 (64:ff9b::/96) and 6to4 (2002::/16, bits 16–47).
 */
const V4_CARRIERS: { prefix: number[]; length: number; v4At: number }[] = [
  { prefix: v6Bytes('::ffff:0:0'), length: 96, v4At: 12 },
  { prefix: v6Bytes('64:ff9b::'), length: 96, v4At: 12 },
  { prefix: v6Bytes('2002::'), length: 16, v4At: 2 },
];

/** The IPv4 address an IPv6 address stands for: one of `V4_CARRIERS`, or IPv4-compatible (::a.b.c.d). */
function embeddedV4(bytes: number[]): number[] | undefined {
  const carrier = V4_CARRIERS.find(({ prefix, length }) => inRange(bytes, prefix, length));
  if (carrier) return bytes.slice(carrier.v4At, carrier.v4At + 4);
  const compatible = isZero(bytes.slice(0, 12)) && !isZero(bytes.slice(12, 14));
  return compatible ? bytes.slice(12) : undefined;
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
