import { describe, expect, it } from 'vitest';
import { newTenant } from '../../support/client.js';
import { licensedProduct, newRelease, plugin } from '../../support/licensing-fixtures.js';

/** The answers docs/api.md ("Bad input") promises; the sweep in malformed-input.test.ts covers every route. */
describe('bad input', () => {
  it('answers malformed percent-encoding in any path with the gateway\'s 400, before any function', async () => {
    const tenant = await newTenant();
    for (const res of [await tenant.get('/api/products/%E0%A4%A'), await plugin().get('/v1/download/%E0%A4%A?license_key=x', { origin: null })]) {
      expect([res.status, res.body]).toEqual([400, { message: 'Bad Request' }]);
    }
  });

  it('answers ids of the wrong shape as unknown ids, in paths and in bodies', async () => {
    const { tenant, product, license } = await licensedProduct();
    const cases: [Promise<{ status: number; body: any }>, number, string][] = [
      [tenant.get(`/api/products/${'p'.repeat(5000)}`), 404, 'Product not found'],
      [tenant.get(`/api/products/${license.id}`), 404, 'Product not found'],
      [tenant.get(`/api/products/${product.id}/plans/pln_short`), 404, 'Plan not found'],
      [tenant.delete('/api/api-keys/KEY_NOT_AN_ID'), 404, 'API key not found'],
      [tenant.post(`/api/activations/${product.id}/deactivate`), 404, 'Activation not found'],
      [tenant.post('/api/licenses', { productId: 'prd_x', customerEmail: 'a@example.com' }), 404, 'Product not found'],
      [tenant.post('/api/licenses', { productId: 'p'.repeat(5000), customerEmail: 'a@example.com' }), 404, 'Product not found'],
      [tenant.post('/api/licenses', { productId: product.id, planId: 'x'.repeat(64), customerEmail: 'a@example.com' }), 404, 'Plan not found'],
      // Body rules still come first, as for an unknown id.
      [tenant.post('/api/licenses', { productId: 'prd_x', customerEmail: 'nope' }), 400, 'customerEmail: must be a valid e-mail address'],
    ];
    for (const [request, status, error] of cases) {
      const res = await request;
      expect([res.status, res.body.error]).toEqual([status, error]);
    }
  });

  it('refuses list filters of the wrong shape with 400; an empty filter is none', async () => {
    const { tenant } = await licensedProduct();
    const byProduct = await tenant.get('/api/licenses?product_id=prd_x');
    expect([byProduct.status, byProduct.body.error]).toEqual([400, 'product_id: must be a product id']);
    const byLicense = await tenant.get('/api/activations?license_id=x');
    expect([byLicense.status, byLicense.body.error]).toEqual([400, 'license_id: must be a license id']);
    expect((await tenant.get('/api/licenses?product_id=')).body.pagination.total).toBe(1);
  });

  it('answers keys that cannot be keys as unknown ones on the edge and public surfaces', async () => {
    const { tenant, product, license } = await licensedProduct();
    const release = await newRelease(tenant, product.id, { version: '1.0.0' });
    const call = (path: string, body: unknown) => plugin().post(path, body, { origin: null });
    const cases: [Promise<{ status: number; body: any }>, number, unknown][] = [
      [call('/v1/licenses/validate', { license_key: 'x'.repeat(256) }), 404, { valid: false, error: 'License key not found' }],
      [call('/v1/licenses/activate', { license_key: 'not a key', domain: 'example.com' }), 404, { error: 'License key not found' }],
      [call('/public/v1/licenses/validate', { public_key: 'pk_short', license_key: license.licenseKey }), 404, { valid: false, error: 'Invalid public_key' }],
      [call('/public/v1/licenses/check', { public_key: 'sk_x', license_key: license.licenseKey, domain: 'example.com' }), 404, { error: 'Invalid public_key' }],
      [call('/v1/licenses/deactivate', { license_key: license.licenseKey, activation_id: 'act_x' }), 400, { error: 'Activation not found' }],
      // Domain rules come before keys (DECISIONS §4 order).
      [call('/v1/licenses/activate', { license_key: 'not a key', domain: `${'a.'.repeat(999)}io` }), 400, { error: 'domain must be a host name of at most 253 characters' }],
      [call('/v1/licenses/activate', { license_key: license.licenseKey, site: `${'a'.repeat(64)}.io` }), 400, { error: 'site must not have a label longer than 63 characters' }],
      [plugin().get(`/v1/download/${release.id}?license_key=not-a-key`, { origin: null }), 403, { error: 'License key not found' }],
      [plugin().get(`/v1/download/${'r'.repeat(5000)}?license_key=${license.licenseKey}`, { origin: null }), 404, { error: 'Release not found' }],
    ];
    for (const [request, status, body] of cases) {
      const res = await request;
      expect([res.status, res.body]).toEqual([status, body]);
    }
    expect((await call('/v1/licenses/validate', { license_key: license.licenseKey })).body.license.activatedCount).toBe(0);
  });

  it('refuses metadata nested 5,000 levels deep with 400', async () => {
    const tenant = await newTenant();
    const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    const res = await tenant.request('POST', '/api/customers', {
      rawBody: `{"email":"deep@example.com","metadata":${deep}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect([res.status, res.body.error]).toEqual([400, 'metadata: must nest at most 8 levels']);
    expect((await tenant.get('/api/customers')).body.pagination.total).toBe(0);
  });
});
