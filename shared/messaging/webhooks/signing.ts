import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

/** A signing secret: `whsec_` + base64 of 32 random bytes (DECISIONS §7). */
export function generateSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** Standard Webhooks allows keys of 24 to 64 bytes; a supplied secret must decode to one. */
export function isValidSecret(secret: string): boolean {
  if (!secret.startsWith(SECRET_PREFIX)) return false;
  const encoded = secret.slice(SECRET_PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || encoded.length % 4 !== 0) return false;
  const bytes = Buffer.from(encoded, 'base64').length;
  return bytes >= 24 && bytes <= 64;
}

/** The three Standard Webhooks headers for one send of `body` (the exact bytes that go on the wire). */
export function signatureHeaders(secret: string, webhookId: string, body: string, now: Date): Record<string, string> {
  const timestamp = String(Math.floor(now.getTime() / 1000));
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  const signature = createHmac('sha256', key).update(`${webhookId}.${timestamp}.${body}`).digest('base64');
  return { 'webhook-id': webhookId, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` };
}
