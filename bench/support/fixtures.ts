/** What the HTTP benchmarks share: a tenant seeded through the management API, and events for calling a handler directly. */
import type { HttpEvent } from '../../shared/platform/http/types.js';

const JSON_HEADERS = { 'content-type': 'application/json' };

/** Plugins that verify signed answers send a nonce: the edge benchmarks' calls do, so every answer is signed with it. */
export const NONCE = { 'signature-nonce': 'bench-nonce-0123456789' };

/**
 * A tenant with one product (its id, slug and public API key), `licenses` licenses of `seats` seats each (and
 * `licenseFields`, e.g. floating) and one
 * published release, made through the management API as a vendor would.
 */
export async function seedTenant(baseUrl: string, options: { licenses: number; seats: number; licenseFields?: Record<string, unknown>; bundle?: boolean }) {
  const call = async (path: string, body: unknown, cookie?: string) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { ...JSON_HEADERS, origin: baseUrl, ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return { body: (await res.json()) as Record<string, any>, cookie: res.headers.getSetCookie()[0]?.split(';')[0] };
  };
  const { cookie } = await call('/api/auth/register', { email: `bench-${Date.now()}@example.com`, password: 'bench password', name: 'Bench' });
  const product = (await call('/api/products', { name: `Bench ${Date.now()}`, productType: 'plugin' }, cookie)).body;
  const keys: string[] = [];
  for (let i = 0; i < options.licenses; i++) {
    const license = await call('/api/licenses', { productId: product.id, customerEmail: `buyer${i}@example.com`, seats: options.seats, ...options.licenseFields }, cookie);
    keys.push(license.body.licenseKey);
  }
  const form = new FormData();
  form.set('version', '1.0.0');
  form.set('file', new Blob([new Uint8Array([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)])], { type: 'application/zip' }), 'bench.zip');
  const upload = await fetch(`${baseUrl}/api/products/${product.id}/releases/upload`, { method: 'POST', headers: { cookie: cookie!, origin: baseUrl }, body: form });
  const release = (await call(`/api/products/${product.id}/releases`, { ...((await upload.json()) as object), version: '1.0.0' }, cookie)).body;
  // `bundle`: a bundle of the product and one more (DECISIONS §23), and one key of it.
  let bundleKey: string | undefined;
  if (options.bundle) {
    const other = (await call('/api/products', { name: `Bench other ${Date.now()}`, productType: 'plugin' }, cookie)).body;
    const bundle = (await call('/api/products', { name: `Bench bundle ${Date.now()}`, productType: 'bundle', includes: [product.id, other.id] }, cookie)).body;
    bundleKey = (await call('/api/licenses', { productId: bundle.id, customerEmail: 'bundle@example.com', seats: options.seats }, cookie)).body.licenseKey;
  }
  return { keys, productId: product.id as string, slug: product.slug as string, publicKey: product.public_key as string, releaseId: release.id as string, bundleKey };
}

/** A payload-2.0 event as the gateway builds it, from `sourceIp`, for calling an edge handler directly. */
export function edgeEvent(method: string, path: string, options: { body?: unknown; query?: Record<string, string>; sourceIp?: string } = {}): HttpEvent {
  const { body, query } = options;
  return {
    version: '2.0',
    routeKey: 'ANY /v1/{proxy+}',
    rawPath: path,
    rawQueryString: new URLSearchParams(query).toString(),
    headers: body === undefined ? {} : JSON_HEADERS,
    ...(query ? { queryStringParameters: query } : {}),
    requestContext: {
      accountId: 'bench', apiId: 'bench', domainName: 'localhost', domainPrefix: 'localhost',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: options.sourceIp ?? '127.0.0.1', userAgent: 'bench' },
      requestId: 'bench', routeKey: 'ANY /v1/{proxy+}', stage: '$default', time: '', timeEpoch: Date.now(),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    isBase64Encoded: false,
  };
}
