import { createHash, randomBytes } from 'node:crypto';
import { base32 } from '@scure/base';

/** Lowercase RFC 4648 base32 of `byteCount` random bytes (multiples of 5 need no padding). */
export function randomBase32(byteCount: number): string {
  return base32.encode(randomBytes(byteCount)).replace(/=+$/, '').toLowerCase();
}

/** License key characters: A–Z and 2–9 without the look-alikes 0, O, 1 and I (DECISIONS §3). */
export const KEY_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export const ID_PREFIXES = [
  'usr', 'prd', 'pln', 'lic', 'act', 'cus', 'whk', 'rel', 'pay', 'sub', 'key', 'evt', 'dlv', 'fbk', 'uev', 'drs', 'sig', 'eml',
  'exp',
  'imp',
  'inv',
  'aud',
  'lse',
  'cpn',
] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

/** Prefix plus 24 lowercase base32 characters (15 random bytes). */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase32(15)}`;
}

const ID_SHAPES = new Map(ID_PREFIXES.map((prefix) => [prefix, new RegExp(`^${prefix}_[a-z2-7]{24}$`)]));

/** True when `value` has the shape `newId(prefix)` gives, so it can name an item at all (DECISIONS §2). */
export function hasIdShape(prefix: IdPrefix, value: string): boolean {
  return ID_SHAPES.get(prefix)!.test(value);
}

/** A product's public key: `pk_` plus 32 lowercase base32 characters (20 random bytes). */
export function newPublicKey(): string {
  return `pk_${randomBase32(20)}`;
}

export function hasPublicKeyShape(value: string): boolean {
  return /^pk_[a-z2-7]{32}$/.test(value);
}

/** Secrets are stored only as this digest: high-entropy tokens need no slow hash. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
