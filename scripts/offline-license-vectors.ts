/**
 * Writes the offline license file test vectors (`docs/test-vectors/offline-license/*.json`) that client libraries
 * verify against: `npx tsx scripts/offline-license-vectors.ts` (add `--check` to compare only). The files are made
 * by the service's own formatter (shared/licensing/signing/license-file.ts) with a fixed key derived from a public seed, so
 * they come out the same every time; the seed is for the vectors alone and signs nothing else.
 */
import { sign, type KeyObject } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { formatLicenseFile, type LicenseFilePayload } from '../shared/licensing/signing/license-file.js';
import { keyFromSeed as keyFromSeedText, serializeVector, writeVectors } from './test-vectors.js';

export const VECTORS_DIR = fileURLToPath(new URL('../docs/test-vectors/offline-license/', import.meta.url));

const keyFromSeed = (label: string) => keyFromSeedText(`licensing-service offline license test vectors: ${label}`);

const KEY_ID = 'sig_testvectorskeyaaaaaaaaaa';
const OTHER_KEY_ID = 'sig_testvectorskeybbbbbbbbbb';

const payload: LicenseFilePayload = {
  format: 'license-file',
  version: 1,
  keyId: KEY_ID,
  productId: 'prd_testvectorsproductaaaaaa',
  productSlug: 'acme-seo',
  licenseId: 'lic_testvectorslicenseaaaaaa',
  licenseKey: 'ACME-SEO-ABCD-EFGH-JKLM-NPQR',
  status: 'active',
  seats: 3,
  expiresAt: '2027-01-15T00:00:00.000Z',
  features: ['reports'],
  activationId: 'act_testvectorsactivationaaa',
  domain: 'shop.example.com',
  issuedAt: '2026-03-01T12:00:00.000Z',
  validUntil: '2026-03-31T12:00:00.000Z',
};

type Vector = {
  description: string;
  licenseFile: string;
  /** The keys the client knows (`GET /public/v1/signing-key`): key id and base64 of the raw 32-byte public key. */
  publicKeys: { keyId: string; publicKey: string }[];
  /** The site's own domain, normalized as the service normalizes domains. */
  domain: string;
  now: string;
  expected: 'valid' | 'tampered' | 'expired' | 'wrong_domain' | 'unknown_key';
};

export function buildVectors(): Record<string, Vector> {
  const key = keyFromSeed('key a');
  const other = keyFromSeed('key b');
  const signer = (privateKey: KeyObject) => (message: Buffer) => sign(null, message, privateKey);
  const file = formatLicenseFile(payload, signer(key.privateKey));
  const known = [{ keyId: KEY_ID, publicKey: key.publicKey }];
  const base = { publicKeys: known, domain: payload.domain!, now: '2026-03-10T08:30:00.000Z' };

  const lines = file.split('\n');
  const signatureAt = lines.indexOf('-----SIGNATURE-----');
  const withPayload = (json: object) =>
    [lines[0], ...Buffer.from(JSON.stringify(json)).toString('base64').match(/.{1,64}/g)!, ...lines.slice(signatureAt)].join('\n');
  const flipped = Buffer.from(lines[signatureAt + 1]!, 'base64');
  flipped[10]! ^= 0x01;
  const withSignature = [...lines.slice(0, signatureAt + 1), flipped.toString('base64'), ...lines.slice(signatureAt + 2)].join('\n');

  return {
    valid: { description: 'A file as the service issues it, checked on its domain within its validity window.', licenseFile: file, ...base, expected: 'valid' },
    'valid-crlf': {
      description: 'The same file saved with Windows line breaks: line breaks are not part of what is signed.',
      licenseFile: file.replace(/\n/g, '\r\n'),
      ...base,
      expected: 'valid',
    },
    'valid-grace-key': {
      description: 'Signed by a key that is no longer current but still in its grace period: listed, so accepted.',
      licenseFile: file,
      ...base,
      publicKeys: [{ keyId: OTHER_KEY_ID, publicKey: other.publicKey }, ...known],
      expected: 'valid',
    },
    'tampered-payload': {
      description: 'The payload re-encoded with 99 seats and the original signature kept.',
      licenseFile: withPayload({ ...payload, seats: 99 }),
      ...base,
      expected: 'tampered',
    },
    'tampered-valid-until': {
      description: 'The payload re-encoded with a later validUntil, the original signature kept.',
      licenseFile: withPayload({ ...payload, validUntil: '2036-03-31T12:00:00.000Z' }),
      ...base,
      now: '2026-04-10T00:00:00.000Z',
      expected: 'tampered',
    },
    'tampered-signature': { description: 'One bit of the signature flipped.', licenseFile: withSignature, ...base, expected: 'tampered' },
    'signed-by-another-key': {
      description: "Signed by a key that is not the one its keyId names (the listed key of that id does not verify it).",
      licenseFile: formatLicenseFile(payload, signer(other.privateKey)),
      ...base,
      expected: 'tampered',
    },
    malformed: {
      description: 'Cut short: no END line. A file that does not parse is refused as tampered.',
      licenseFile: lines.slice(0, -2).join('\n'),
      ...base,
      expected: 'tampered',
    },
    expired: { description: 'Checked after validUntil.', licenseFile: file, ...base, now: '2026-04-01T00:00:00.000Z', expected: 'expired' },
    'expired-at-valid-until': { description: 'Checked at validUntil exactly: the window has ended.', licenseFile: file, ...base, now: payload.validUntil, expected: 'expired' },
    'wrong-domain': { description: "Checked on another site than the activation's.", licenseFile: file, ...base, domain: 'staging.example.com', expected: 'wrong_domain' },
    'unknown-key': {
      description: 'Signed by a key the client does not know (fetch the keys again; still unknown: refuse).',
      licenseFile: file,
      ...base,
      publicKeys: [{ keyId: OTHER_KEY_ID, publicKey: other.publicKey }],
      expected: 'unknown_key',
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeVectors(VECTORS_DIR, buildVectors(), { check: process.argv.includes('--check'), script: 'scripts/offline-license-vectors.ts' });
}

export { serializeVector };
