/**
 * Hooks for signed responses and offline license files. The client calls them at the right moments (a response's raw
 * bytes before they are parsed; an offline file when the service cannot be reached); the verifiers themselves are
 * supplied by the caller, so the trust formats can evolve without changing the request code.
 */
import type { LicenseInfo, ProductInfo } from './types.js';

/** What a response verifier sees: the request as sent and the response exactly as received. */
export interface VerifiableResponse {
  request: {
    method: string;
    /** The full URL that was requested. */
    url: string;
    /** The headers the client sent (lower-case names). */
    headers: Record<string, string>;
    /** The body the client sent, if any. */
    body: string | undefined;
  };
  status: number;
  headers: Headers;
  /** The raw body, before any parsing. */
  body: Uint8Array;
}

/**
 * Checks a response before the client parses it: throw `SignatureError` (or return a rejected promise) to refuse it.
 * A refused response is never retried and never falls back to the validation cache.
 */
export interface ResponseVerifier {
  verify(response: VerifiableResponse): void | Promise<void>;
}

/** What an offline license file proves, once its verifier has checked it. */
export interface OfflineLicensePayload {
  license: LicenseInfo;
  product?: Partial<ProductInfo>;
  /** When the file itself stops being usable (ISO 8601), independent of the license's own `expiresAt`. */
  validUntil?: string | null;
  /** Host names the file is bound to; absent or empty: any. */
  domains?: string[];
  /** `production` or `staging` when the file says so. */
  environment?: string;
  issuedAt?: string;
}

/** Parses an offline license file and checks its signature; throws `OfflineLicenseError` / `SignatureError`. */
export interface OfflineLicenseVerifier {
  verify(file: string): OfflineLicensePayload | Promise<OfflineLicensePayload>;
}

export interface OfflineOptions {
  /** Reads the stored offline license file (from disk, localStorage, a bundled asset…); null when there is none. */
  load: () => string | null | undefined | Promise<string | null | undefined>;
  verifier: OfflineLicenseVerifier;
}
