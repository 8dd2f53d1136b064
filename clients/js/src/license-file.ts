/**
 * Offline license files, format v1 (docs/api.md "Offline license files"): parsed and checked with WebCrypto alone,
 * in the documented order, first failure wins: tampered, unknown_key, tampered (signature), wrong_domain, expired.
 */
import { ascii, fromBase64 } from './encoding.js';
import { normalizeDomain } from './domain.js';
import type { SigningKeys } from './signing-keys.js';

const BEGIN = '-----BEGIN LICENSE FILE v1-----';
const SIGNATURE = '-----SIGNATURE-----';
const END = '-----END LICENSE FILE v1-----';
/** What precedes the payload's base64 in the signed message. */
const SIGNING_PREFIX = 'license-file:v1:';

/**
 * What a valid file says: the service's word on the license, as of `issuedAt`, for one activated domain. The same
 * shape as the service's own (shared/licensing/signing/license-file.ts), written again: the package ships without service code.
 */
export type LicenseFilePayload = {
  format: 'license-file';
  version: 1;
  keyId: string;
  productId: string;
  productSlug: string;
  licenseId: string;
  licenseKey: string;
  status: string;
  seats: number;
  /** The license's own end; null: lifetime. */
  expiresAt: string | null;
  /** The license's feature keys (absent from files issued before features existed). */
  features?: string[];
  activationId: string;
  domain: string;
  issuedAt: string;
  /** The file is usable until then (never past `expiresAt`). */
  validUntil: string;
};

export type LicenseFileVerdict = 'valid' | 'tampered' | 'expired' | 'wrong_domain' | 'unknown_key';

export type LicenseFileCheck = { verdict: 'valid'; payload: LicenseFilePayload } | { verdict: Exclude<LicenseFileVerdict, 'valid'> };

/**
 * The verdict on `file` for the site `domain` at `now` (ms). Keys are looked up in `keys` without asking the service
 * (`refresh`: allow a fetch of the key list, for a file just received online).
 */
export async function checkLicenseFile(
  file: string,
  context: { keys: SigningKeys; domain: string; now: number; refresh?: boolean },
): Promise<LicenseFileCheck> {
  const lines = file.replace(/\r\n/g, '\n').trim().split('\n');
  const count = lines.length;
  // BEGIN, at least one payload line, SIGNATURE, the signature, END.
  if (count < 5 || lines[0] !== BEGIN || lines[count - 1] !== END || lines[count - 3] !== SIGNATURE) return { verdict: 'tampered' };
  const payloadBase64 = lines.slice(1, count - 3).join('');
  const json = fromBase64(payloadBase64);
  const signature = fromBase64(lines[count - 2]!);
  if (!json || !signature || signature.length !== 64) return { verdict: 'tampered' };
  let payload: LicenseFilePayload;
  try {
    payload = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(json));
  } catch {
    return { verdict: 'tampered' };
  }
  if (!payload || payload.format !== 'license-file' || payload.version !== 1 || typeof payload.keyId !== 'string') return { verdict: 'tampered' };

  const key = await context.keys.find(payload.keyId, { refresh: context.refresh ?? false });
  if (!key) return { verdict: 'unknown_key' };
  if (!(await context.keys.subtle.verify({ name: 'Ed25519' }, key, signature, ascii(`${SIGNING_PREFIX}${payloadBase64}`)))) return { verdict: 'tampered' };
  // Signed: from here the payload is the service's word.
  if (payload.domain !== normalizeDomain(context.domain)) return { verdict: 'wrong_domain' };
  const validUntil = Date.parse(payload.validUntil);
  if (!(context.now < validUntil)) return { verdict: 'expired' };
  return { verdict: 'valid', payload };
}
