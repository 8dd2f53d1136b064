/**
 * The offline license file, version 1 (docs/api.md, Offline license files): a signed statement that a license
 * was usable on one activated domain, valid until `validUntil`, checkable with nothing but Ed25519.
 *
 *   -----BEGIN LICENSE FILE v1-----
 *   <payload: base64 (RFC 4648, padded) of the UTF-8 JSON below, in lines of 64 characters>
 *   -----SIGNATURE-----
 *   <base64 of the 64-byte Ed25519 signature>
 *   -----END LICENSE FILE v1-----
 *
 * The signature is over the ASCII bytes of `license-file:v1:` followed by the payload's base64 with its line
 * breaks removed (the prefix keeps a license file's signature from ever being taken for another use of the key).
 */

export const LICENSE_FILE_BEGIN = '-----BEGIN LICENSE FILE v1-----';
export const LICENSE_FILE_SIGNATURE = '-----SIGNATURE-----';
export const LICENSE_FILE_END = '-----END LICENSE FILE v1-----';
/** What precedes the payload's base64 in the signed message. */
export const LICENSE_FILE_SIGNING_PREFIX = 'license-file:v1:';

/** The payload, in this key order (the JSON is signed as the file carries it; verifiers never re-serialize it). */
export type LicenseFilePayload = {
  format: 'license-file';
  version: 1;
  /** The product key that signed the file (`GET /public/v1/signing-key`). */
  keyId: string;
  productId: string;
  productSlug: string;
  licenseId: string;
  licenseKey: string;
  status: string;
  seats: number;
  /** The license's own end; null: lifetime. */
  expiresAt: string | null;
  /** The license's feature keys (DECISIONS §23). */
  features: string[];
  /** The activation the file is bound to, and its (normalized) domain, or for a device its machine (and no domain). */
  activationId: string;
  domain?: string;
  machine?: string;
  issuedAt: string;
  /** issuedAt + the product's `offlineValidityDays`, or the license's `expiresAt` when that comes first. */
  validUntil: string;
};

const lines = (text: string, width: number) => text.match(new RegExp(`.{1,${width}}`, 'g')) ?? [];

/** The message the signature covers, for a payload's base64 (without line breaks). */
export const licenseFileMessage = (payloadBase64: string) => Buffer.from(`${LICENSE_FILE_SIGNING_PREFIX}${payloadBase64}`, 'ascii');

/** The file's text for a payload, signed by `sign` (Ed25519 over `licenseFileMessage`). Ends with a line break. */
export function formatLicenseFile(payload: LicenseFilePayload, sign: (message: Buffer) => Buffer): string {
  const payloadBase64 = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64');
  const signature = sign(licenseFileMessage(payloadBase64)).toString('base64');
  return [LICENSE_FILE_BEGIN, ...lines(payloadBase64, 64), LICENSE_FILE_SIGNATURE, signature, LICENSE_FILE_END, ''].join('\n');
}
