import { describe, expect, it } from 'vitest';
import { licensedProduct, newLicense, newProduct, newRelease, plugin, zipBytes } from '../../support/licensing-fixtures.js';

const download = (releaseId: string, licenseKey?: string) =>
  plugin().get(`/v1/download/${releaseId}${licenseKey === undefined ? '' : `?license_key=${encodeURIComponent(licenseKey)}`}`, { origin: null });

describe('download', () => {
  it('redirects a valid key to the stored file, under its name, and counts the download', async () => {
    const { tenant, product, license } = await licensedProduct();
    const bytes = zipBytes(4096, 0x7a);
    const release = await newRelease(tenant, product.id, { version: '1.0.0' }, bytes, 'my-plugin-1.0.0.zip');

    const res = await download(release.id, license.licenseKey);
    expect(res.status).toBe(302);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const file = await fetch(res.headers.get('location')!);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(bytes)).toBe(true);
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="my-plugin-1.0.0.zip"');

    await download(release.id, license.licenseKey);
    const stored = await tenant.get(`/api/products/${product.id}/releases/${release.id}`);
    expect(stored.body.downloadCount).toBe(2);
  });

  it('refuses invalid keys with 403, unknown or unpublished releases with 404, and counts neither', async () => {
    const { tenant, product, license } = await licensedProduct();
    const release = await newRelease(tenant, product.id, { version: '1.0.0' });
    const draft = await newRelease(tenant, product.id, { version: '2.0.0', status: 'draft' });
    const suspended = await newLicense(tenant, product.id);
    await tenant.put(`/api/licenses/${suspended.id}`, { status: 'suspended' });
    const otherProduct = await newProduct(tenant);
    const foreign = await newLicense(tenant, otherProduct.id);

    const cases: [string, string | undefined, number, string][] = [
      [release.id, 'NOPE-AAAA-BBBB-CCCC-DDDD', 403, 'License key not found'],
      [release.id, suspended.licenseKey, 403, 'License is suspended'],
      [release.id, foreign.licenseKey, 403, 'License does not belong to this product'],
      [release.id, undefined, 400, 'license_key is required'],
      [draft.id, license.licenseKey, 404, 'Release not found'],
      ['rel_unknown', license.licenseKey, 404, 'Release not found'],
    ];
    for (const [releaseId, key, status, error] of cases) {
      const res = await download(releaseId, key);
      expect([res.status, res.body.error], `${releaseId} ${key}`).toEqual([status, error]);
    }
    expect((await tenant.get(`/api/products/${product.id}/releases/${release.id}`)).body.downloadCount).toBe(0);
    expect((await tenant.get(`/api/products/${product.id}/releases/${draft.id}`)).body.downloadCount).toBe(0);
  });
});
