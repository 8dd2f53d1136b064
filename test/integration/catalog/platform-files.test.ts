import { describe, expect, it } from 'vitest';
import { newTenant } from '../../support/client.js';
import { addPlatformFile, desktopBuild, uploadFile } from '../../support/desktop-fixtures.js';
import { newProduct, newRelease } from '../../support/licensing-fixtures.js';

const PLATFORM_LIST = 'windows-x64, windows-arm64, macos-x64, macos-arm64, linux-x64, linux-arm64';

describe('platform files of a release (DECISIONS §26)', () => {
  it('adds a file per platform, lists them with the release, and replaces a platform given again', async () => {
    const tenant = await newTenant();
    const product = await newProduct(tenant, { productType: 'app' });
    const release = await newRelease(tenant, product.id, { version: '1.0.0' });

    const mac = await addPlatformFile(tenant, product.id, release.id, 'macos-arm64', 'Notes-1.0.0-arm64-mac.zip', { signature: 'ed25519-sig' });
    expect(mac.file).toEqual({
      platform: 'macos-arm64',
      fileName: 'Notes-1.0.0-arm64-mac.zip',
      fileSize: mac.build.bytes.length,
      filePath: expect.stringMatching(new RegExp(`^releases/${tenant.userId}/${product.id}/`)),
      sha512: mac.build.sha512,
      signature: 'ed25519-sig',
      createdAt: expect.any(String),
    });
    await addPlatformFile(tenant, product.id, release.id, 'windows-x64', 'Notes Setup 1.0.0.exe');
    const replacement = await addPlatformFile(tenant, product.id, release.id, 'macos-arm64', 'Notes-1.0.1-arm64-mac.zip');

    const listed = (await tenant.get(`/api/products/${product.id}/releases`)).body.items[0];
    expect(listed.files.map((file: { platform: string; fileName: string }) => [file.platform, file.fileName])).toEqual([
      ['windows-x64', 'Notes-Setup-1.0.0.exe'],
      ['macos-arm64', 'Notes-1.0.1-arm64-mac.zip'],
    ]);
    expect(listed.files[1]).toMatchObject({ sha512: replacement.build.sha512, signature: null });
    expect((await tenant.get(`/api/products/${product.id}/releases/${release.id}`)).body.files).toEqual(listed.files);
  });

  it('refuses an unknown platform, a malformed sha512, a file over the limit, and paths that are not uploads; writes nothing', async () => {
    const tenant = await newTenant();
    const product = await newProduct(tenant, { productType: 'app' });
    const other = await newProduct(tenant, { productType: 'app' });
    const release = await newRelease(tenant, product.id, { version: '1.0.0' });
    const build = desktopBuild(512);
    const filePath = await uploadFile(tenant, product.id, 'app.deb', build.bytes);
    const foreignPath = await uploadFile(tenant, other.id, 'app.deb', build.bytes);
    const good = { platform: 'linux-x64', fileName: 'app.deb', fileSize: build.bytes.length, filePath, sha512: build.sha512 };
    const files = `/api/products/${product.id}/releases/${release.id}/files`;

    const cases: [Record<string, unknown>, number, string][] = [
      [{ ...good, platform: 'solaris-sparc' }, 400, PLATFORM_LIST],
      [{ ...good, sha512: build.sha512.slice(0, 80) }, 400, 'sha512'],
      [{ ...good, sha512: Buffer.alloc(32).toString('base64') }, 400, 'sha512'],
      [{ ...good, sha512: 'x'.repeat(128) }, 400, 'sha512'],
      [{ ...good, fileSize: 500 * 1024 * 1024 + 1 }, 413, 'at most 500 MB'],
      [{ ...good, fileSize: build.bytes.length + 1 }, 400, 'fileSize: does not match the uploaded file'],
      [{ ...good, filePath: foreignPath }, 400, 'filePath'],
      [{ ...good, filePath: `${filePath}.missing` }, 400, 'filePath'],
    ];
    for (const [body, status, message] of cases) {
      const res = await tenant.post(files, body);
      expect([res.status, res.text], JSON.stringify(body).slice(0, 120)).toEqual([status, expect.stringContaining(message)]);
    }
    expect((await tenant.post(`/api/products/${product.id}/releases/rel_${'a'.repeat(24)}/files`, good)).status).toBe(404);
    expect((await tenant.get(`/api/products/${product.id}/releases/${release.id}`)).body.files).toEqual([]);
  });
});
