import { createPublicKey, verify } from 'node:crypto';

/**
 * An offline license file verifier written from docs/api.md ("Offline license files") with `node:crypto` alone,
 * none of the service's code: what a JavaScript client library does. Verdicts as in the test vectors.
 */
export type OfflineVerdict = 'valid' | 'tampered' | 'expired' | 'wrong_domain' | 'unknown_key';
export type KnownKey = { keyId: string; publicKey: string };

const BEGIN = '-----BEGIN LICENSE FILE v1-----';
const SIGNATURE = '-----SIGNATURE-----';
const END = '-----END LICENSE FILE v1-----';
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

const rawEd25519Key = (base64: string) =>
  createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(base64, 'base64').toString('base64url') }, format: 'jwk' });

export function verifyOfflineLicense(file: string, keys: KnownKey[], domain: string, now: Date): { verdict: OfflineVerdict; payload?: Record<string, any> } {
  const lines = file.replace(/\r\n/g, '\n').trim().split('\n');
  const n = lines.length;
  if (n < 5 || lines[0] !== BEGIN || lines[n - 1] !== END || lines[n - 3] !== SIGNATURE) return { verdict: 'tampered' };
  const payloadBase64 = lines.slice(1, n - 3).join('');
  const signatureBase64 = lines[n - 2]!;
  if (!BASE64.test(payloadBase64) || !BASE64.test(signatureBase64)) return { verdict: 'tampered' };
  const signature = Buffer.from(signatureBase64, 'base64');
  let payload: Record<string, any>;
  try {
    payload = JSON.parse(Buffer.from(payloadBase64, 'base64').toString('utf8'));
  } catch {
    return { verdict: 'tampered' };
  }
  if (signature.length !== 64 || payload?.format !== 'license-file' || payload.version !== 1 || typeof payload.keyId !== 'string') return { verdict: 'tampered' };
  const key = keys.find((candidate) => candidate.keyId === payload.keyId);
  if (!key || Buffer.from(key.publicKey, 'base64').length !== 32) return { verdict: 'unknown_key' };
  if (!verify(null, Buffer.from(`license-file:v1:${payloadBase64}`, 'ascii'), rawEd25519Key(key.publicKey), signature)) return { verdict: 'tampered' };
  if (payload.domain !== domain) return { verdict: 'wrong_domain', payload };
  const validUntil = Date.parse(payload.validUntil);
  if (!Number.isFinite(validUntil) || now.getTime() >= validUntil) return { verdict: 'expired', payload };
  return { verdict: 'valid', payload };
}
