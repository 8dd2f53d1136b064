import { createHmac, timingSafeEqual } from 'node:crypto';
import type { LinkSecret } from './link-secret.js';

/** SERVICE-SPEC §8: a portal download link works for 24 hours. */
export const DOWNLOAD_LINK_TTL_SECONDS = 24 * 60 * 60;

const mac = (key: Buffer, releaseId: string, expires: string) => createHmac('sha256', key).update(`${releaseId}.${expires}`).digest('hex');

/** `{base}/dl/{releaseId}?expires=<unix>&signature=<hex>`: HMAC-SHA256 over `releaseId.expires` (DECISIONS §5). */
export async function signedDownloadUrl(secret: LinkSecret, baseUrl: string, releaseId: string, now: Date): Promise<string> {
  const expires = String(Math.floor(now.getTime() / 1000) + DOWNLOAD_LINK_TTL_SECONDS);
  const signature = mac(await secret(), releaseId, expires);
  return `${baseUrl}/dl/${encodeURIComponent(releaseId)}?${new URLSearchParams({ expires, signature })}`;
}

/** True when the link is one we signed for this release and has not expired; the signature is compared in constant time. */
export async function isValidDownloadLink(
  secret: LinkSecret,
  link: { releaseId: string; expires?: string; signature?: string },
  now: Date,
): Promise<boolean> {
  const { releaseId, expires, signature } = link;
  if (!expires || !/^\d{1,12}$/.test(expires) || !signature || !/^[0-9a-f]{64}$/.test(signature)) return false;
  if (Number(expires) * 1000 <= now.getTime()) return false;
  return timingSafeEqual(Buffer.from(mac(await secret(), releaseId, expires), 'hex'), Buffer.from(signature, 'hex'));
}
