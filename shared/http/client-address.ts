import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { CoreConfig } from '../config.js';
import { header } from './request.js';
import type { HttpEvent } from './types.js';

/**
 * The caller's IP address, for per-address limits and records. Behind the front door (the stack's CloudFront
 * distribution) API Gateway sees CloudFront's address, so the viewer's comes from CloudFront's
 * `cloudfront-viewer-address` header, trusted only on a request that carries CloudFront's secret
 * `x-origin-verify` header. Anything else (no front door, a forged header) gets the connection's own `sourceIp`.
 */
export function clientAddress(event: HttpEvent, config: Pick<CoreConfig, 'originVerifyToken'>): string {
  const token = config.originVerifyToken;
  const fromCloudFront = token && hasOriginSecret(event, token) ? viewerAddress(header(event, 'cloudfront-viewer-address')) : undefined;
  return fromCloudFront ?? event.requestContext.http.sourceIp;
}

/** Whether the request carries the front door's secret `x-origin-verify` header (CloudFront adds it to every request). */
export function hasOriginSecret(event: HttpEvent, token: string): boolean {
  const presented = header(event, 'x-origin-verify');
  if (presented === undefined) return false;
  // Digests are of equal length, so the comparison takes the same time whatever was presented.
  return timingSafeEqual(sha256(presented), sha256(token));
}

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/**
 * The address in CloudFront's `address:port` value: `198.51.100.10:46532`, or IPv6 with the port after the
 * last colon, `2001:db8::1:46532` (CloudFront always adds the port), or bracketed, `[2001:db8::1]:46532`.
 */
function viewerAddress(value: string | undefined): string | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(text);
  if (bracketed) return isIP(bracketed[1]!) === 6 ? bracketed[1] : undefined;
  const withPort = /^(.+):\d{1,5}$/.exec(text);
  const address = withPort && isIP(withPort[1]!) ? withPort[1]! : text;
  return isIP(address) ? address : undefined;
}
