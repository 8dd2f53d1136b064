import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { Tenant } from './licensing-fixtures.js';

/** A desktop build: its bytes and their SHA-512 in base64, as electron-builder writes it. */
export function desktopBuild(size = 2048) {
  const bytes = randomBytes(size);
  return { bytes, sha512: createHash('sha512').update(bytes).digest('base64') };
}

/** Sends `bytes` to an upload URL of the product: the `filePath` a release file names. */
export async function uploadFile(tenant: Tenant, productId: string, fileName: string, bytes: Buffer): Promise<string> {
  const grant = await tenant.post(`/api/products/${productId}/releases/upload-url`, { fileName, fileSize: bytes.length });
  expect(grant.status, grant.text).toBe(200);
  const put = await fetch(grant.body.uploadUrl, { method: 'PUT', body: new Uint8Array(bytes) });
  expect(put.ok).toBe(true);
  return grant.body.filePath;
}

/** Uploads a build and adds it to the release as its file for `platform`. */
export async function addPlatformFile(
  tenant: Tenant,
  productId: string,
  releaseId: string,
  platform: string,
  fileName: string,
  options: { build?: ReturnType<typeof desktopBuild>; signature?: string } = {},
) {
  const build = options.build ?? desktopBuild();
  const filePath = await uploadFile(tenant, productId, fileName, build.bytes);
  const res = await tenant.post(`/api/products/${productId}/releases/${releaseId}/files`, {
    platform,
    fileName,
    fileSize: build.bytes.length,
    filePath,
    sha512: build.sha512,
    ...(options.signature !== undefined && { signature: options.signature }),
  });
  expect(res.status, res.text).toBe(201);
  return { build, file: res.body };
}
