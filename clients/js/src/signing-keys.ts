/**
 * The product's public signing keys the client trusts, as WebCrypto keys: pinned by the vendor (shipped with the
 * product; the recommended mode) or fetched from `GET /public/v1/signing-key` on first use and kept.
 */
import type { CacheStorage } from './cache.js';
import { fromBase64 } from './encoding.js';

/** A key as `GET /public/v1/signing-key` and the dashboard list it (only these fields are read). */
export type PublicSigningKey = { keyId: string; publicKey: string; expiresAt?: string | null };

export type SigningOptions = {
  /**
   * The product's keys, pinned in your code (copy them from the product in the dashboard, or from
   * `GET /public/v1/signing-key?public_key=…`). Answers and offline files signed by any other key are refused.
   */
  publicKeys?: PublicSigningKey[];
  /**
   * Without `publicKeys`: fetch the keys from the service the first time they are needed and keep them in `storage`
   * (trust on first use). An answer naming a key id not yet known fetches the list again (at most once a minute), so
   * a rotation is followed; the price is that a server able to answer that list can introduce a key of its own.
   */
  trustOnFirstUse?: boolean;
  /** Where fetched keys are kept (default: the validation cache's storage). */
  storage?: CacheStorage;
  /** How far an answer's `created` and `Date` may be from the client's clock, in seconds. Default 300. */
  maxSkewSeconds?: number;
  /** WebCrypto with Ed25519; default `globalThis.crypto.subtle` (Node 18: `require('node:crypto').webcrypto.subtle`). */
  subtle?: SubtleCrypto;
};

const REFETCH_INTERVAL_MS = 60_000;

export class SigningKeys {
  readonly subtle: SubtleCrypto;
  private readonly imported = new Map<string, Promise<CryptoKey | undefined>>();
  private entries: PublicSigningKey[] | undefined;
  private lastFetchAt = -Infinity;

  constructor(
    private readonly source: {
      pinned?: PublicSigningKey[];
      fetch?: () => Promise<PublicSigningKey[]>;
      storage?: CacheStorage;
      storageKey: string;
      now: () => number;
      subtle?: SubtleCrypto;
    },
  ) {
    const subtle = source.subtle ?? (globalThis as { crypto?: Crypto }).crypto?.subtle;
    if (!subtle) throw new TypeError('LicensingClient: signature verification needs WebCrypto (crypto.subtle with Ed25519); pass signing.subtle');
    this.subtle = subtle;
    this.entries = source.pinned;
  }

  /**
   * The verifying key of `keyId`, or undefined when it is not trusted (or past its grace period). `refresh`: when
   * unknown and the keys are fetched, ask the service again (never done offline).
   */
  async find(keyId: string, options: { refresh: boolean }): Promise<CryptoKey | undefined> {
    let entry = (await this.known()).find((key) => key.keyId === keyId);
    if (!entry && options.refresh && this.source.fetch && this.source.now() - this.lastFetchAt >= REFETCH_INTERVAL_MS) {
      entry = (await this.fetch()).find((key) => key.keyId === keyId);
    }
    if (!entry || (entry.expiresAt && Date.parse(entry.expiresAt) <= this.source.now())) return undefined;
    return this.importKey(entry);
  }

  private async known(): Promise<PublicSigningKey[]> {
    if (this.entries) return this.entries;
    const stored = await Promise.resolve(this.source.storage?.get(this.source.storageKey)).catch(() => undefined);
    if (stored) {
      try {
        this.entries = JSON.parse(stored) as PublicSigningKey[];
        return this.entries;
      } catch {
        // Unreadable: fetched again below.
      }
    }
    return this.source.fetch ? this.fetch() : [];
  }

  private async fetch(): Promise<PublicSigningKey[]> {
    this.lastFetchAt = this.source.now();
    const fetched = await this.source.fetch!();
    // Keys already trusted stay (a rotated-out key verifies during its grace period); new ones are added.
    const merged = [...(this.entries ?? []).filter((old) => !fetched.some((key) => key.keyId === old.keyId)), ...fetched];
    this.entries = merged.map(({ keyId, publicKey, expiresAt }) => ({ keyId, publicKey, expiresAt: expiresAt ?? null }));
    await Promise.resolve(this.source.storage?.set(this.source.storageKey, JSON.stringify(this.entries))).catch(() => undefined);
    return this.entries;
  }

  private importKey(entry: PublicSigningKey): Promise<CryptoKey | undefined> {
    const cacheKey = `${entry.keyId}:${entry.publicKey}`;
    let key = this.imported.get(cacheKey);
    if (!key) {
      const raw = fromBase64(entry.publicKey);
      key =
        raw?.length === 32
          ? this.subtle.importKey('raw', raw, { name: 'Ed25519' }, false, ['verify']).catch(() => undefined)
          : Promise.resolve(undefined);
      this.imported.set(cacheKey, key);
    }
    return key;
  }
}
