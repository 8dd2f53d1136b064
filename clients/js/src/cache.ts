/**
 * The last good validation of each key, kept so a validation can still succeed for a while (the grace period) when
 * the service cannot be reached. Never used after a definite "invalid": that answer deletes the entry.
 */
import type { LicenseInfo, ProductInfo } from './types.js';

/**
 * Where the cache lives. Values are strings (JSON). Sync or async: `localStorage` fits through `webStorage()`,
 * a file or a database through a two-method object.
 */
export interface CacheStorage {
  get(key: string): string | null | undefined | Promise<string | null | undefined>;
  set(key: string, value: string): void | Promise<void>;
  delete?(key: string): void | Promise<void>;
}

/** The default: a Map in memory, gone with the process or page. */
export function memoryStorage(): CacheStorage & { readonly size: number } {
  const map = new Map<string, string>();
  return {
    get: (key) => map.get(key),
    set: (key, value) => void map.set(key, value),
    delete: (key) => void map.delete(key),
    get size() {
      return map.size;
    },
  };
}

/** `localStorage` or `sessionStorage` (or anything with `getItem`/`setItem`/`removeItem`). */
export function webStorage(storage: {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}): CacheStorage {
  return {
    get: (key) => storage.getItem(key),
    set: (key, value) => storage.setItem(key, value),
    delete: (key) => storage.removeItem(key),
  };
}

export interface CacheOptions {
  /** Where entries are kept. Default: `memoryStorage()`. */
  storage?: CacheStorage;
  /** How long after the last good answer a cached validation may stand in for an unreachable service. Default 72 h. */
  gracePeriodMs?: number;
  /** Key prefix in the storage. Default `licensing:`. */
  prefix?: string;
}

export type CachedValidation = {
  v: 1;
  license: LicenseInfo;
  product: ProductInfo;
  /** When the service answered (ms since the epoch). */
  checkedAt: number;
  /** The latest time this entry was read or written: a clock now earlier than this has been turned back. */
  lastSeenAt: number;
};

/** A clock turned back by more than this is treated as rolled back, and refuses the grace. */
const CLOCK_SKEW_MS = 5 * 60_000;

export class ValidationCache {
  readonly storage: CacheStorage;
  readonly gracePeriodMs: number;
  private readonly prefix: string;

  constructor(options: CacheOptions = {}) {
    this.storage = options.storage ?? memoryStorage();
    this.gracePeriodMs = options.gracePeriodMs ?? 72 * 3_600_000;
    this.prefix = options.prefix ?? 'licensing:';
  }

  private key(scope: string, licenseKey: string) {
    return `${this.prefix}${scope}:${licenseKey}`;
  }

  async store(scope: string, licenseKey: string, entry: Omit<CachedValidation, 'v' | 'lastSeenAt'>) {
    const value: CachedValidation = { v: 1, ...entry, lastSeenAt: entry.checkedAt };
    await this.storage.set(this.key(scope, licenseKey), JSON.stringify(value));
  }

  async forget(scope: string, licenseKey: string) {
    const key = this.key(scope, licenseKey);
    if (this.storage.delete) await this.storage.delete(key);
    else await this.storage.set(key, '');
  }

  /**
   * The entry usable as a stand-in now, or why not: `none` (nothing stored or unreadable), `expired-grace`
   * (older than the grace period), `clock` (the clock went back), `license-expired` (the license's own end passed).
   */
  async lookup(
    scope: string,
    licenseKey: string,
    now: number,
  ): Promise<{ entry: CachedValidation } | { refused: 'none' | 'expired-grace' | 'clock' | 'license-expired'; entry?: CachedValidation }> {
    const key = this.key(scope, licenseKey);
    let entry: CachedValidation;
    try {
      const raw = await this.storage.get(key);
      if (!raw) return { refused: 'none' };
      entry = JSON.parse(raw);
      if (entry?.v !== 1 || !entry.license || entry.license.key !== licenseKey) return { refused: 'none' };
    } catch {
      return { refused: 'none' };
    }
    if (now + CLOCK_SKEW_MS < entry.lastSeenAt || now + CLOCK_SKEW_MS < entry.checkedAt) return { refused: 'clock', entry };
    if (now - entry.checkedAt > this.gracePeriodMs) return { refused: 'expired-grace', entry };
    if (entry.license.expiresAt && Date.parse(entry.license.expiresAt) <= now) return { refused: 'license-expired', entry };
    if (now > entry.lastSeenAt) {
      // Remember the latest time seen, so turning the clock back later is noticed.
      await Promise.resolve(this.storage.set(key, JSON.stringify({ ...entry, lastSeenAt: now }))).catch(() => undefined);
    }
    return { entry };
  }
}
