import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { Client, newTenant } from './client.js';

export type Tenant = Awaited<ReturnType<typeof newTenant>>;
export type Product = { id: string; name: string; slug: string; public_key: string };
export type License = { id: string; licenseKey: string; seats: number; status: string; activatedCount: number };

/** A caller with no credentials and no Origin: what an installed plugin is. */
export const plugin = () => new Client();

export async function newProduct(tenant: Tenant, fields: Record<string, unknown> = {}): Promise<Product> {
  // Slugs are unique across the deployment: a random name keeps every test's product apart.
  const name = `Licensed Plugin ${randomUUID().slice(0, 8)}`;
  const res = await tenant.post('/api/products', { name, productType: 'plugin', ...fields });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

export async function newLicense(tenant: Tenant, productId: string, fields: Record<string, unknown> = {}): Promise<License> {
  const res = await tenant.post('/api/licenses', { productId, customerEmail: 'buyer@example.com', seats: 2, ...fields });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** A new tenant with a product and one license on it. */
export async function licensedProduct(licenseFields: Record<string, unknown> = {}) {
  const tenant = await newTenant();
  const product = await newProduct(tenant);
  const license = await newLicense(tenant, product.id, licenseFields);
  return { tenant, product, license };
}

/** Bytes that start like a ZIP archive (a local file header), with distinct content per `fill`. */
export function zipBytes(size = 256, fill = 0x61): Buffer {
  const bytes = Buffer.alloc(size, fill);
  bytes.set([0x50, 0x4b, 0x03, 0x04]);
  return bytes;
}

/** Uploads a file and creates a release of it. */
export async function newRelease(
  tenant: Tenant,
  productId: string,
  fields: {
    version: string;
    status?: string;
    releaseNotes?: string;
    tested?: string;
    requires?: string;
    requiresPhp?: string;
    channel?: string;
    rolloutPercent?: number;
  },
  bytes = zipBytes(),
  fileName = 'licensed-plugin.zip',
) {
  const form = new FormData();
  form.set('version', fields.version);
  form.set('file', new Blob([new Uint8Array(bytes)], { type: 'application/zip' }), fileName);
  const upload = await tenant.request('POST', `/api/products/${productId}/releases/upload`, { rawBody: form });
  expect(upload.status, upload.text).toBe(201);
  const res = await tenant.post(`/api/products/${productId}/releases`, { ...upload.body, ...fields });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; version: string; downloadCount: number; channel: string; rolloutPercent: number };
}

/** Polls (an index or a cache may lag) until `read` returns a value `accept`s, or fails with the last one. */
export async function eventually<T>(read: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (accept(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
