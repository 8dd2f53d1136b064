/**
 * Where checkout may send a buyer back with the license key they bought (DECISIONS §13): a product lists its
 * return origins, and a checkout `return_url` of another origin is refused, so a link made by someone else cannot
 * carry a bought key to their site. A product with no list accepts any origin (unsafe; the dashboard warns).
 */

export const MAX_RETURN_ORIGINS = 20;
export const MAX_RETURN_ORIGIN_LENGTH = 300;
export const RETURN_URL_NOT_ALLOWED = 'return_url is not allowed for this product';

const NOT_AN_ORIGIN = 'must be an https origin such as https://shop.example.com (http only for localhost)';
const NOT_ALONE = 'must be an origin alone, without a path, query or fragment';

/** Hosts a developer's own machine answers on, where plain http is the norm (as OAuth allows loopback redirects). */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
/** A host name of labels (IDNs arrive in punycode), an IPv4 literal or a bracketed IPv6 one: no wildcard, no trailing dot. */
const HOST = /^(?:[a-z0-9_-]+\.)*[a-z0-9_-]+$|^\[[0-9a-f:.]+\]$/;

/**
 * A listed origin as browsers write it (`https://Shop.Example.com:443/` is `https://shop.example.com`), or what is
 * wrong with it. One trailing `/` is tolerated; a path, query or fragment is not.
 */
export function parseReturnOrigin(value: string): { origin: string } | { problem: string } {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return { problem: NOT_AN_ORIGIN };
  }
  const secure = url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
  if (!secure || url.username || url.password || !HOST.test(url.hostname)) return { problem: NOT_AN_ORIGIN };
  if (url.pathname !== '/' || url.search || url.hash || /[?#]/.test(value)) return { problem: NOT_ALONE };
  return { origin: url.origin };
}

/** Whether checkout may send the buyer back to `returnUrl` (an absolute http(s) URL): its origin is listed, or nothing is. */
export function isReturnUrlAllowed(returnOrigins: readonly string[], returnUrl: string): boolean {
  return returnOrigins.length === 0 || returnOrigins.includes(new URL(returnUrl).origin);
}
