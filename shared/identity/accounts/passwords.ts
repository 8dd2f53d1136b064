import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { PASSWORD_HASH_COST } from '../../platform/index.js';

const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const KEY_LENGTH = 32;
/** N=2^17 needs 128 MiB, above node's 32 MiB default maxmem. */
const MAX_MEMORY = 256 * 1024 * 1024;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { ...options, maxmem: MAX_MEMORY }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/**
 * `scrypt$N$r$p$salt$hash` (base64), so parameters can be raised later without breaking old hashes. `cost` is log2
 * of N: only the local runtime's tests lower it (`PASSWORD_HASH_COST`, shared/platform/config.ts), to make accounts cheaply.
 */
export async function hashPassword(password: string, cost = PASSWORD_HASH_COST): Promise<string> {
  const salt = randomBytes(16);
  const params = { N: 2 ** cost, r: BLOCK_SIZE, p: PARALLELISM };
  const key = await derive(password, salt, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Spent on unknown e-mails so that they take as long as a wrong password (at the cost new hashes get). */
const decoyHashes = new Map<number, Promise<string>>();
export function decoyPasswordHash(cost = PASSWORD_HASH_COST): Promise<string> {
  if (!decoyHashes.has(cost)) decoyHashes.set(cost, hashPassword(randomBytes(16).toString('hex'), cost));
  return decoyHashes.get(cost)!;
}
