import { describe, expect, it } from 'vitest';
import { licensedProduct, newProduct, plugin } from '../../support/licensing-fixtures.js';

const call = (operation: string, body: unknown, origin: string | null = null) =>
  plugin().post(`/public/v1/licenses/${operation}`, body, { origin });

describe('public license operations', () => {
  it('requires a known public_key of a live product', async () => {
    const { tenant, product, license } = await licensedProduct();
    const missing = await call('validate', { license_key: license.licenseKey });
    expect([missing.status, missing.body]).toEqual([400, { valid: false, error: 'public_key is required' }]);
    for (const operation of ['activate', 'check']) {
      const res = await call(operation, { public_key: 'pk_unknown', license_key: license.licenseKey, domain: 'example.com' });
      expect([res.status, res.body], operation).toEqual([404, { error: 'Invalid public_key' }]);
    }
    const unknown = await call('validate', { public_key: 'pk_unknown', license_key: 'NOPE' });
    expect([unknown.status, unknown.body]).toEqual([404, { valid: false, error: 'Invalid public_key' }]);

    const regenerated = await tenant.post(`/api/products/${product.id}/regenerate-public-key`);
    expect(regenerated.status).toBe(200);
    const old = await call('validate', { public_key: product.public_key, license_key: license.licenseKey });
    expect([old.status, old.body]).toEqual([404, { valid: false, error: 'Invalid public_key' }]);
    const fresh = await call('validate', { public_key: regenerated.body.public_key, license_key: license.licenseKey });
    expect(fresh.body.valid).toBe(true);
  });

  it('treats a deleted product as unknown at once, though the public surface has it cached', async () => {
    // Each surface has its own caches, as its own Lambda would: the delete reaches the public one only
    // through the table, where it removed the product's public key.
    const { tenant, product, license } = await licensedProduct();
    expect((await call('validate', { public_key: product.public_key, license_key: license.licenseKey })).body.valid).toBe(true);
    expect((await tenant.delete(`/api/products/${product.id}`)).status).toBe(204);
    const deleted = await call('validate', { public_key: product.public_key, license_key: license.licenseKey });
    expect([deleted.status, deleted.body]).toEqual([404, { valid: false, error: 'Invalid public_key' }]);
  });

  it("answers another product's license as not found through a public key", async () => {
    const { tenant, license } = await licensedProduct();
    const other = await newProduct(tenant);
    const res = await call('activate', { public_key: other.public_key, license_key: license.licenseKey, domain: 'example.com' });
    // Signed for the product the public key names, so bound to the request (DECISIONS §13).
    expect([res.status, res.body]).toEqual([404, { error: 'License key not found', license_key: license.licenseKey, domain: 'example.com' }]);
  });

  it('activates with activated_at, checks, and deactivates', async () => {
    const { product, license } = await licensedProduct();
    const key = { public_key: product.public_key, license_key: license.licenseKey };
    // Every answer names the key and the domain (normalized) it is about (DECISIONS §13).
    const about = { license_key: license.licenseKey, domain: 'shop.example' };
    // Activate and check answers carry the license's features (DECISIONS §23): none on this license.
    const noFeatures = { license: { features: [] } };
    const before = await call('check', { ...key, domain: 'shop.example' });
    expect([before.status, before.body]).toEqual([200, { activated: false, activation_id: null, ...noFeatures, ...about }]);

    const activated = await call('activate', { ...key, domain: 'https://shop.example/' });
    expect(activated.status).toBe(200);
    // `shop.example` is a staging site by the default patterns (`*.example`).
    expect(activated.body).toEqual({ success: true, activation_id: expect.stringMatching(/^act_/), activated_at: expect.any(String), environment: 'staging', ...noFeatures, ...about });
    expect(Date.parse(activated.body.activated_at)).toBeGreaterThan(Date.now() - 60_000);

    const check = await call('check', { ...key, domain: 'SHOP.example' });
    expect(check.body).toEqual({ activated: true, activation_id: activated.body.activation_id, ...noFeatures, ...about });
    const repeated = await call('activate', { ...key, domain: 'shop.example' });
    expect(repeated.body).toEqual({ success: true, activation_id: activated.body.activation_id, activated_at: activated.body.activated_at, environment: 'staging', ...noFeatures, ...about });

    expect((await call('deactivate', { ...key, domain: 'shop.example' })).body).toEqual({ success: true, ...about });
    expect((await call('check', { ...key, domain: 'shop.example' })).body).toEqual({ activated: false, activation_id: null, ...noFeatures, ...about });
  });

  it('checks input and license state like the other operations', async () => {
    const { tenant, product, license } = await licensedProduct();
    const key = { public_key: product.public_key, license_key: license.licenseKey };
    expect((await call('check', key)).body).toEqual({ error: 'Send either domain or machine' });
    await tenant.put(`/api/licenses/${license.id}`, { status: 'suspended' });
    const res = await call('check', { ...key, domain: 'example.com' });
    expect([res.status, res.body]).toEqual([400, { error: 'License is suspended', license_key: license.licenseKey, domain: 'example.com' }]);
    const edge = await plugin().post('/v1/licenses/check', { ...key, domain: 'example.com' }, { origin: null });
    expect(edge.status).toBe(404);
  });

  it('is open to any origin and answers preflights', async () => {
    const { product, license } = await licensedProduct();
    const preflight = await plugin().request('OPTIONS', '/public/v1/licenses/validate', {
      origin: 'https://customer-site.example',
      headers: { 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    const res = await call('validate', { public_key: product.public_key, license_key: license.licenseKey }, 'https://customer-site.example');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  });
});
