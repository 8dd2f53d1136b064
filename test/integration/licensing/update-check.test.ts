import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { licensedProduct, newLicense, newProduct, newRelease, plugin } from '../../support/licensing-fixtures.js';

const updateCheck = (params: Record<string, string>) =>
  plugin().get(`/v1/wp/update-check?${new URLSearchParams(params)}`, { origin: null });

describe('update check', () => {
  it('answers the WordPress format; package only for a valid key of the product; drafts ignored', async () => {
    const { tenant, license } = await licensedProduct();
    const product = await newProduct(tenant, {
      description: 'Does <things>\nwell',
      homepage: 'https://widget.example',
      logoUrl: 'https://widget.example/icon.png',
      bannerUrl: 'https://widget.example/banner.png',
      tested: '6.4',
      requires: '6.0',
      requiresPhp: '7.4',
    });
    const key = await newLicense(tenant, product.id);
    await newRelease(tenant, product.id, { version: '1.0.0', releaseNotes: 'First <b>release</b>' });
    const latest = await newRelease(tenant, product.id, { version: '1.1.0', releaseNotes: 'Fixes & more', tested: '6.5' });
    await newRelease(tenant, product.id, { version: '2.0.0', releaseNotes: 'Not yet', status: 'draft' });

    const res = await updateCheck({ slug: product.slug, license_key: key.licenseKey, version: '1.0.0' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      name: product.name,
      slug: product.slug,
      version: '1.1.0',
      new_version: '1.1.0',
      url: 'https://widget.example',
      package: `${inject('baseUrl')}/v1/download/${latest.id}?license_key=${encodeURIComponent(key.licenseKey)}`,
      tested: '6.5',
      requires: '6.0',
      requires_php: '7.4',
      icons: { '1x': 'https://widget.example/icon.png', '2x': 'https://widget.example/icon.png' },
      banners: { low: 'https://widget.example/banner.png', high: 'https://widget.example/banner.png' },
      sections: {
        description: '<p>Does &lt;things&gt;<br>\nwell</p>',
        changelog: '<h4>1.1.0</h4>\n<p>Fixes &amp; more</p>\n<h4>1.0.0</h4>\n<p>First &lt;b&gt;release&lt;/b&gt;</p>',
      },
    });

    // Another product's key, an unknown key, and keys that are not active: the same metadata, no package.
    const suspended = await newLicense(tenant, product.id);
    await tenant.put(`/api/licenses/${suspended.id}`, { status: 'suspended' });
    for (const licenseKey of [license.licenseKey, 'NOPE-AAAA-BBBB-CCCC-DDDD', suspended.licenseKey]) {
      const without = await updateCheck({ slug: product.slug, license_key: licenseKey, version: '1.0.0' });
      expect(without.status).toBe(200);
      const { package: _, ...rest } = res.body;
      expect(without.body).toEqual(rest);
    }
    // The key is read fresh on every check: a revoke removes the package at once.
    await tenant.post(`/api/licenses/${key.id}/revoke`);
    expect((await updateCheck({ slug: product.slug, license_key: key.licenseKey, version: '1.1.0' })).body.package).toBeUndefined();
  });

  it('answers 404 for an unknown or deleted slug and 400 for a missing parameter', async () => {
    const { tenant, product, license } = await licensedProduct();
    const unknown = await updateCheck({ slug: 'no-such-product-slug', license_key: license.licenseKey, version: '1.0' });
    expect([unknown.status, unknown.body]).toEqual([404, { error: 'Product not found' }]);
    for (const missing of ['slug', 'license_key', 'version']) {
      const params: Record<string, string> = { slug: product.slug, license_key: license.licenseKey, version: '1.0' };
      delete params[missing];
      const res = await updateCheck(params);
      expect([res.status, res.body.error]).toEqual([400, `${missing} is required`]);
    }
    await tenant.delete(`/api/products/${product.id}`);
    const deleted = await updateCheck({ slug: product.slug, license_key: license.licenseKey, version: '1.0' });
    expect([deleted.status, deleted.body]).toEqual([404, { error: 'Product not found' }]);
  });

  it('offers a release at once, and answers a product deleted since it was cached as unknown', async () => {
    // The edge keeps its own caches, as its own Lambda would; release writes reach it through the product's stamp.
    const { tenant, product, license } = await licensedProduct();
    await newRelease(tenant, product.id, { version: '1.0.0' });
    const check = () => updateCheck({ slug: product.slug, license_key: license.licenseKey, version: '1.0.0' });
    expect((await check()).body.new_version).toBe('1.0.0');
    const next = await newRelease(tenant, product.id, { version: '1.1.0', releaseNotes: 'Faster' });
    const updated = (await check()).body;
    expect([updated.new_version, updated.package]).toEqual(['1.1.0', expect.stringContaining(`/v1/download/${next.id}?`)]);
    await tenant.put(`/api/products/${product.id}/releases/${next.id}`, { status: 'draft' });
    expect((await check()).body.new_version).toBe('1.0.0');
    await tenant.delete(`/api/products/${product.id}`);
    expect((await check()).status).toBe(404);
  });

  it('answers a product without published releases with null versions and no package', async () => {
    const { product, license } = await licensedProduct();
    const res = await updateCheck({ slug: product.slug, license_key: license.licenseKey, version: '1.0' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ version: null, new_version: null, sections: { changelog: '' } });
    expect(res.body.package).toBeUndefined();
  });
});
