import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { MAX_API_UPLOAD_BODY_BYTES } from '../../../shared/catalog/releases/file-rules.js';
import { createDownloadLinks } from '../../../shared/platform/storage/download-links.js';
import { DASHBOARD_ORIGIN, newTenant } from '../../support/client.js';

const MiB = 1024 * 1024;

type Tenant = Awaited<ReturnType<typeof newTenant>>;

/** Bytes that start like a ZIP archive (a local file header), padded to `size`. */
function zipBytes(size = 64, fill = 0x61): Buffer {
  const bytes = Buffer.alloc(size, fill);
  bytes.set([0x50, 0x4b, 0x03, 0x04]);
  return bytes;
}
/** The smallest valid ZIP: an archive with no entries is only its end-of-central-directory record. */
const EMPTY_ZIP = Buffer.from([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)]);

async function productOf(tenant: Tenant) {
  const res = await tenant.post('/api/products', { name: 'Release Host', productType: 'plugin' });
  expect(res.status).toBe(201);
  return res.body as { id: string };
}

function uploadForm(bytes: Buffer, fileName = 'my-plugin.zip', version?: string) {
  const form = new FormData();
  if (version !== undefined) form.set('version', version);
  form.set('file', new Blob([new Uint8Array(bytes)], { type: 'application/zip' }), fileName);
  return form;
}

async function upload(tenant: Tenant, productId: string, bytes = zipBytes(), fileName?: string) {
  return tenant.request('POST', `/api/products/${productId}/releases/upload`, { rawBody: uploadForm(bytes, fileName, '1.0.0') });
}

/** Direct access to the local object store, found from a presigned URL (which points at it, path style). */
async function storageFor(tenant: Tenant, productId: string) {
  const res = await tenant.post(`/api/products/${productId}/releases/upload-url`, { fileName: 'probe.zip', fileSize: 10 });
  const url = new URL(res.body.uploadUrl);
  const bucket = url.pathname.split('/')[1]!;
  const s3 = new S3Client({
    endpoint: url.origin,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const storedUnder = async (prefix: string) =>
    ((await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }))).Contents ?? []).map((o) => o.Key);
  return { s3, bucket, endpoint: url.origin, storedUnder, prefix: `releases/${tenant.userId}/${productId}/` };
}

describe('release upload', () => {
  it('stores a ZIP under the tenant and product and answers 201 {filePath, fileName, fileSize}', async () => {
    const tenant = await newTenant();
    const product = await productOf(tenant);
    const bytes = zipBytes(1000);
    const res = await upload(tenant, product.id, bytes, '../My Plugin (v1).zip');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      filePath: expect.stringMatching(new RegExp(`^releases/${tenant.userId}/${product.id}/[a-z2-7]{16}/My-Plugin-v1-.zip$`)),
      fileName: 'My-Plugin-v1-.zip',
      fileSize: 1000,
    });
    const storage = await storageFor(tenant, product.id);
    expect(await storage.storedUnder(storage.prefix)).toEqual([res.body.filePath]);
    expect((await upload(tenant, product.id, EMPTY_ZIP)).status).toBe(201);
  });

  it('refuses a non-ZIP (400), an oversized file (413) and a non-multipart body (415), storing nothing', async () => {
    const tenant = await newTenant();
    const product = await productOf(tenant);
    const path = `/api/products/${product.id}/releases/upload`;

    const notZip = await upload(tenant, product.id, Buffer.from('just some text, named like a zip'), 'fake.zip');
    expect(notZip.status).toBe(400);
    expect(notZip.body.error).toBe('file: must be a ZIP archive');

    const tooLarge = await upload(tenant, product.id, zipBytes(4 * MiB + 1));
    expect([tooLarge.status, tooLarge.body]).toEqual([413, { error: 'file is larger than 4 MiB; use an upload URL' }]);

    const json = await tenant.post(path, { file: 'UEsDBA==' });
    expect(json.status).toBe(415);
    expect(json.body.error).toBe('Content-Type must be multipart/form-data');

    const noFile = new FormData();
    noFile.set('version', '1.0.0');
    const missing = await tenant.request('POST', path, { rawBody: noFile });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('file is required');

    const extra = uploadForm(zipBytes());
    extra.set('owner', 'me');
    expect((await tenant.request('POST', path, { rawBody: extra })).body.error).toBe('Unknown field: owner');

    const storage = await storageFor(tenant, product.id);
    expect(await storage.storedUnder(storage.prefix)).toEqual([]);
  });

  it('accepts exactly 4 MiB: its base64-encoded event fits within Lambda\'s 6 MiB', async () => {
    const tenant = await newTenant();
    const product = await productOf(tenant);
    const res = await upload(tenant, product.id, zipBytes(4 * MiB));
    expect(res.status).toBe(201);
    expect(res.body.fileSize).toBe(4 * MiB);
  });

  it('refuses a larger body by its length with its own 413 and CORS headers while Lambda takes it, API Gateway\'s past that', async () => {
    const tenant = await newTenant();
    const product = await productOf(tenant);
    // Just over the body limit: still an event Lambda takes (about 5.7 MB base64), so the function answers.
    const over = await tenant.request('POST', `/api/products/${product.id}/releases/upload`, {
      rawBody: new Uint8Array(MAX_API_UPLOAD_BODY_BYTES + 1),
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
    });
    expect([over.status, over.body]).toEqual([413, { error: 'file is larger than 4 MiB; use an upload URL' }]);
    expect(over.headers.get('access-control-allow-origin')).toBe(DASHBOARD_ORIGIN);
    // 5 MiB is over 6 MiB as base64: Lambda refuses the event and API Gateway answers, as the local gateway does.
    const refused = await upload(tenant, product.id, zipBytes(5 * MiB));
    expect([refused.status, refused.body]).toEqual([413, { message: 'Request Entity Too Large' }]);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    const storage = await storageFor(tenant, product.id);
    expect(await storage.storedUnder(storage.prefix)).toEqual([]);
  });
});

describe('releases', () => {
  it('uploads, creates (201) with defaults, lists newest first, and reads one', async () => {
    const tenant = await newTenant();
    const product = await productOf(tenant);
    const file = (await upload(tenant, product.id)).body;
    const releases = `/api/products/${product.id}/releases`;
    const res = await tenant.post(releases, { version: '1.0.0', releaseNotes: 'First', ...file, tested: '6.5', requires: '6.0', requiresPhp: '7.4' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^rel_[a-z2-7]{24}$/),
      productId: product.id,
      version: '1.0.0',
      releaseNotes: 'First',
      filePath: file.filePath,
      fileName: file.fileName,
      fileSize: file.fileSize,
      status: 'published',
      downloadCount: 0,
      tested: '6.5',
      requires: '6.0',
      requiresPhp: '7.4',
      channel: 'stable',
      rolloutPercent: 100,
      files: [],
      releasedAt: res.body.createdAt,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const draft = await tenant.post(releases, { version: '1.1.0', filePath: file.filePath, status: 'draft' });
    expect(draft.status).toBe(201);
    expect(draft.body).toMatchObject({ status: 'draft', releasedAt: null, releaseNotes: null, fileName: file.fileName, fileSize: file.fileSize });
    const listed = await tenant.get(releases);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({ items: [draft.body, res.body] });
    expect((await tenant.get(`${releases}/${res.body.id}`)).body).toEqual(res.body);
  });

  it('validates create: required fields, file under this product, existing ZIP, matching size', async () => {
    const tenant = await newTenant();
    const product = await productOf(tenant);
    const otherProduct = await productOf(tenant);
    const file = (await upload(tenant, product.id)).body;
    const foreign = (await upload(tenant, otherProduct.id)).body;
    const releases = `/api/products/${product.id}/releases`;
    const cases: [unknown, RegExp][] = [
      [{ filePath: file.filePath }, /version is required/],
      [{ version: '1.0.0' }, /filePath is required/],
      [{ version: 'not a version!', filePath: file.filePath }, /version/],
      [{ version: 1, filePath: file.filePath }, /version/],
      [{ version: '1.0', filePath: file.filePath, status: 'live' }, /status/],
      [{ version: '1.0', filePath: file.filePath, fileSize: '64' }, /fileSize/],
      [{ version: '1.0', filePath: foreign.filePath }, /filePath: must be a path returned by an upload for this product/],
      [{ version: '1.0', filePath: `releases/${tenant.userId}/${product.id}/x/../../y/z.zip` }, /filePath: must be a path/],
      [{ version: '1.0', filePath: `${file.filePath}.missing` }, /filePath: no uploaded file at this path/],
      [{ version: '1.0', filePath: file.filePath, fileSize: 1 }, /fileSize: does not match/],
      [{ version: '1.0', filePath: file.filePath, downloads: 5 }, /Unknown field: downloads/],
    ];
    for (const [body, message] of cases) {
      const res = await tenant.post(releases, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatch(message);
    }
    expect((await tenant.get(releases)).body.items).toEqual([]);
  });

  it('creates a release from a presigned upload; a presigned GET serves the bytes under the original name', async () => {
    const tenant = await newTenant();
    const product = await productOf(tenant);
    const bytes = zipBytes(2048, 0x62);
    const grant = await tenant.post(`/api/products/${product.id}/releases/upload-url`, { fileName: 'Big Plugin.zip', fileSize: bytes.length });
    expect(grant.status).toBe(200);
    expect(grant.body).toEqual({
      uploadUrl: expect.stringMatching(/^http/),
      filePath: expect.stringMatching(new RegExp(`^releases/${tenant.userId}/${product.id}/[a-z2-7]{16}/Big-Plugin.zip$`)),
      fileName: 'Big-Plugin.zip',
      expiresAt: expect.any(String),
    });
    const ttl = Date.parse(grant.body.expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(14 * 60_000);
    expect(ttl).toBeLessThanOrEqual(15 * 60_000);

    const releases = `/api/products/${product.id}/releases`;
    // Nothing was uploaded yet: the path does not exist.
    expect((await tenant.post(releases, { version: '2.0.0', filePath: grant.body.filePath })).status).toBe(400);
    expect((await fetch(grant.body.uploadUrl, { method: 'PUT', body: new Uint8Array(bytes) })).ok).toBe(true);

    const res = await tenant.post(releases, { version: '2.0.0', filePath: grant.body.filePath, fileName: grant.body.fileName, fileSize: bytes.length });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ fileName: 'Big-Plugin.zip', fileSize: 2048 });

    const storage = await storageFor(tenant, product.id);
    const links = createDownloadLinks({ region: 'us-east-1', bucketName: storage.bucket, endpoints: { s3: storage.endpoint }, downloadLinks: {} }, storage.s3.config.credentials);
    const url = await links.presign(res.body.filePath, res.body.fileName, 60);
    const download = await fetch(url);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toBe('attachment; filename="Big-Plugin.zip"');
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('refuses a presigned upload that is not a ZIP when the release is created', async () => {
    const tenant = await newTenant();
    const product = await productOf(tenant);
    const text = Buffer.from('plain text, not an archive');
    const grant = (await tenant.post(`/api/products/${product.id}/releases/upload-url`, { fileName: 'x.zip', fileSize: text.length })).body;
    expect((await fetch(grant.uploadUrl, { method: 'PUT', body: new Uint8Array(text) })).ok).toBe(true);
    const res = await tenant.post(`/api/products/${product.id}/releases`, { version: '1.0', filePath: grant.filePath });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('filePath: the uploaded file is not a ZIP archive');
  });

  it('validates the upload-url request', async () => {
    const tenant = await newTenant();
    const product = await productOf(tenant);
    const path = `/api/products/${product.id}/releases/upload-url`;
    expect((await tenant.post(path, { fileSize: 10 })).body.error).toBe('fileName is required');
    expect((await tenant.post(path, { fileName: 'a.zip' })).body.error).toBe('fileSize is required');
    expect((await tenant.post(path, { fileName: 'a.zip', fileSize: 0 })).status).toBe(400);
    expect((await tenant.post(path, { fileName: 'a.zip', fileSize: 501 * 1024 * 1024 })).status).toBe(400);
  });

  it('keeps the product latestVersion at the highest published version through creates, updates and deletes', async () => {
    const tenant = await newTenant();
    const product = await productOf(tenant);
    const { filePath } = (await upload(tenant, product.id)).body;
    const releases = `/api/products/${product.id}/releases`;
    const latest = async () => (await tenant.get(`/api/products/${product.id}`)).body.latestVersion;
    const create = async (version: string, status?: string) =>
      (await tenant.post(releases, { version, filePath, ...(status && { status }) })).body as { id: string };

    expect(await latest()).toBeNull();
    const v19 = await create('1.9');
    expect(await latest()).toBe('1.9');
    const v110 = await create('1.10.0');
    expect(await latest()).toBe('1.10.0');
    await create('2.0.0-beta', 'draft');
    expect(await latest()).toBe('1.10.0');
    const beta = await create('2.0.0-beta');
    expect(await latest()).toBe('2.0.0-beta');
    await create('1.2');
    expect(await latest()).toBe('2.0.0-beta');

    const archived = await tenant.put(`${releases}/${beta.id}`, { status: 'archived' });
    expect(archived.status).toBe(200);
    expect(archived.body).toMatchObject({ status: 'archived', releasedAt: expect.any(String) });
    expect(await latest()).toBe('1.10.0');
    expect((await tenant.put(`${releases}/${v110.id}`, { version: '2.0.0' })).body.version).toBe('2.0.0');
    expect(await latest()).toBe('2.0.0');
    expect((await tenant.delete(`${releases}/${v110.id}`)).status).toBe(204);
    expect(await latest()).toBe('1.9');
    expect((await tenant.get(`${releases}/${v110.id}`)).status).toBe(404);
    expect((await tenant.delete(`${releases}/${v110.id}`)).status).toBe(404);

    await tenant.put(`${releases}/${v19.id}`, { status: 'draft' });
    expect(await latest()).toBe('1.2');
  });

  it('settles latestVersion on the highest of concurrently published releases', async () => {
    const tenant = await newTenant();
    const product = await productOf(tenant);
    const { filePath } = (await upload(tenant, product.id)).body;
    const versions = ['1.0', '1.10', '1.2', '1.9.9', '1.10.0-rc1', '0.9'];
    const results = await Promise.all(versions.map((version) => tenant.post(`/api/products/${product.id}/releases`, { version, filePath })));
    expect(results.map((r) => r.status)).toEqual(versions.map(() => 201));
    expect((await tenant.get(`/api/products/${product.id}`)).body.latestVersion).toBe('1.10');
  });

  it('updates partially: publishing stamps releasedAt once; null clears notes; bad input is 400', async () => {
    const tenant = await newTenant();
    const product = await productOf(tenant);
    const file = (await upload(tenant, product.id)).body;
    const other = (await upload(tenant, product.id, zipBytes(300), 'other.zip')).body;
    const releases = `/api/products/${product.id}/releases`;
    const draft = (await tenant.post(releases, { version: '3.0', filePath: file.filePath, status: 'draft', releaseNotes: 'Notes' })).body;
    expect(draft.releasedAt).toBeNull();

    const published = await tenant.put(`${releases}/${draft.id}`, { status: 'published', releaseNotes: null });
    expect(published.status).toBe(200);
    expect(published.body).toMatchObject({ status: 'published', releaseNotes: null, version: '3.0', releasedAt: expect.any(String) });
    const archived = (await tenant.put(`${releases}/${draft.id}`, { status: 'archived' })).body;
    const republished = (await tenant.put(`${releases}/${draft.id}`, { status: 'published' })).body;
    expect(archived.releasedAt).toBe(published.body.releasedAt);
    expect(republished.releasedAt).toBe(published.body.releasedAt);

    const moved = await tenant.put(`${releases}/${draft.id}`, { filePath: other.filePath });
    expect(moved.body).toMatchObject({ filePath: other.filePath, fileName: 'other.zip', fileSize: 300 });
    expect((await tenant.put(`${releases}/${draft.id}`, { version: '' })).status).toBe(400);
    expect((await tenant.put(`${releases}/${draft.id}`, { filePath: 'releases/elsewhere/x.zip' })).status).toBe(400);
    expect((await tenant.put(`${releases}/${draft.id}`, { fileSize: 1 })).status).toBe(400);
    expect((await tenant.get(`${releases}/${draft.id}`)).body).toEqual(moved.body);
  });

  it("isolates tenants on every release route: another tenant's product or release is 404", async () => {
    const owner = await newTenant();
    const intruder = await newTenant();
    const product = await productOf(owner);
    const file = (await upload(owner, product.id)).body;
    const releases = `/api/products/${product.id}/releases`;
    const release = (await owner.post(releases, { version: '1.0', filePath: file.filePath })).body;
    expect((await intruder.get(releases)).status).toBe(404);
    expect((await intruder.post(releases, { version: '1.0', filePath: file.filePath })).status).toBe(404);
    expect((await upload(intruder, product.id)).status).toBe(404);
    expect((await intruder.post(`${releases}/upload-url`, { fileName: 'a.zip', fileSize: 5 })).status).toBe(404);
    expect((await intruder.get(`${releases}/${release.id}`)).status).toBe(404);
    expect((await intruder.put(`${releases}/${release.id}`, { status: 'draft' })).status).toBe(404);
    expect((await intruder.delete(`${releases}/${release.id}`)).status).toBe(404);
    // Their own product neither reaches the owner's release nor may claim the owner's file.
    const own = await productOf(intruder);
    expect((await intruder.put(`/api/products/${own.id}/releases/${release.id}`, { status: 'draft' })).status).toBe(404);
    expect((await intruder.post(`/api/products/${own.id}/releases`, { version: '1.0', filePath: file.filePath })).status).toBe(400);
    expect((await owner.get(`${releases}/${release.id}`)).body).toEqual(release);
    const storage = await storageFor(owner, product.id);
    expect(await storage.storedUnder(`releases/${intruder.userId}/`)).toEqual([]);
  });

  it('answers 404 on the releases of a deleted product', async () => {
    const tenant = await newTenant();
    const product = await productOf(tenant);
    const file = (await upload(tenant, product.id)).body;
    const releases = `/api/products/${product.id}/releases`;
    const release = (await tenant.post(releases, { version: '1.0', filePath: file.filePath })).body;
    expect((await tenant.delete(`/api/products/${product.id}`)).status).toBe(204);
    for (const res of [
      await tenant.get(releases),
      await tenant.post(releases, { version: '1.1', filePath: file.filePath }),
      await upload(tenant, product.id),
      await tenant.post(`${releases}/upload-url`, { fileName: 'a.zip', fileSize: 5 }),
      await tenant.get(`${releases}/${release.id}`),
      await tenant.put(`${releases}/${release.id}`, { status: 'draft' }),
      await tenant.delete(`${releases}/${release.id}`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('Product not found');
    }
  });
});
