import { createHash, randomBytes } from 'node:crypto';
import { base32 } from '@scure/base';

/** Lowercase RFC 4648 base32 of `byteCount` random bytes (multiples of 5 need no padding). */
export function randomBase32(byteCount: number): string {
  return base32.encode(randomBytes(byteCount)).replace(/=+$/, '').toLowerCase();
}

export type IdPrefix =
  | 'usr' | 'prd' | 'pln' | 'lic' | 'act' | 'cus' | 'whk' | 'rel' | 'pay' | 'sub'
  | 'key' | 'evt' | 'dlv' | 'fbk' | 'uev' | 'drs';

/** Prefix plus 24 lowercase base32 characters (15 random bytes). */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase32(15)}`;
}

/** Secrets are stored only as this digest: high-entropy tokens need no slow hash. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
