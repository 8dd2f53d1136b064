import { describe, expect, it } from 'vitest';
import { licensedProduct, newLicense, newProduct, plugin, type Product } from '../../support/licensing-fixtures.js';

/**
 * The license operations answer the same on both prefixes; the public one also names the product by key, so it
 * knows the product of an unknown license key.
 */
const surfaces = [
  { name: 'edge', prefix: '/v1', identify: (_: Product) => ({}), namesProduct: false },
  { name: 'public', prefix: '/public/v1', identify: (product: Product) => ({ public_key: product.public_key }), namesProduct: true },
];

/** An answer given once the product is known names the key asked about and the domain, normalized (DECISIONS §13). */
const bound = <T extends object>(answer: T, licenseKey: string, domain?: string) => ({ ...answer, license_key: licenseKey, ...(domain === undefined ? {} : { domain }) });

describe.each(surfaces)('license operations on $name ($prefix)', ({ prefix, identify, namesProduct }) => {
  const call = (operation: string, body: unknown) => plugin().post(`${prefix}/licenses/${operation}`, body, { origin: null });

  it('validates a key: license and product, with no activation needed', async () => {
    const { product, license } = await licensedProduct();
    const res = await call('validate', { ...identify(product), license_key: license.licenseKey });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      valid: true,
      license: { key: license.licenseKey, status: 'active', seats: 2, activatedCount: 0, stagingCount: 0, expiresAt: null, channel: 'stable', inGrace: false, features: [] },
      product: { id: product.id, name: product.name, slug: product.slug },
      license_key: license.licenseKey,
    });
  });

  it('answers refusals of validate as {valid:false, error} with the status of DECISIONS §4', async () => {
    const { product, license } = await licensedProduct();
    // Refused before the product is known: no key is named back.
    const cases: [unknown, number, object][] = [
      [{ ...identify(product) }, 400, { valid: false, error: 'license_key is required' }],
      [{ ...identify(product), license_key: '' }, 400, { valid: false, error: 'license_key is required' }],
      [{ ...identify(product), license_key: 42 }, 400, { valid: false, error: 'license_key must be a string' }],
      [
        { ...identify(product), license_key: 'NOPE-AAAA-BBBB-CCCC-DDDD' },
        404,
        namesProduct ? bound({ valid: false, error: 'License key not found' }, 'NOPE-AAAA-BBBB-CCCC-DDDD') : { valid: false, error: 'License key not found' },
      ],
      [
        { ...identify(product), license_key: license.licenseKey, product_slug: 'some-other-product' },
        400,
        bound({ valid: false, error: 'License does not belong to this product' }, license.licenseKey),
      ],
    ];
    for (const [body, status, answer] of cases) {
      const res = await call('validate', body);
      expect([res.status, res.body], JSON.stringify(body)).toEqual([status, answer]);
    }
    const malformed = await plugin().request('POST', `${prefix}/licenses/validate`, {
      rawBody: '{"license_key":',
      headers: { 'content-type': 'application/json' },
      origin: null,
    });
    expect([malformed.status, malformed.body]).toEqual([400, { valid: false, error: 'Malformed JSON body' }]);
    const matching = await call('validate', { ...identify(product), license_key: license.licenseKey, product_slug: product.slug });
    expect(matching.body.valid).toBe(true);
  });

  it('ignores unknown fields, takes `site` for `domain`, and accepts an optional null', async () => {
    const { product, license } = await licensedProduct();
    const res = await call('validate', {
      ...identify(product),
      license_key: license.licenseKey,
      site: 'https://www.example.com',
      plugin_version: '1.2.3',
      product_slug: null,
    });
    expect([res.status, res.body.valid]).toEqual([200, true]);
  });

  it('reports expired (by date or status), suspended and revoked licenses', async () => {
    const { tenant, product } = await licensedProduct();
    const byDate = await newLicense(tenant, product.id, { expiresAt: new Date(Date.now() - 60_000).toISOString() });
    const suspended = await newLicense(tenant, product.id);
    const expired = await newLicense(tenant, product.id);
    const revoked = await newLicense(tenant, product.id);
    expect((await tenant.put(`/api/licenses/${suspended.id}`, { status: 'suspended' })).status).toBe(200);
    expect((await tenant.put(`/api/licenses/${expired.id}`, { status: 'expired' })).status).toBe(200);
    expect((await tenant.post(`/api/licenses/${revoked.id}/revoke`)).status).toBe(200);
    const cases: [string, string][] = [
      [byDate.licenseKey, 'License has expired'],
      [expired.licenseKey, 'License has expired'],
      [suspended.licenseKey, 'License is suspended'],
      [revoked.licenseKey, 'License has been revoked'],
    ];
    for (const [key, error] of cases) {
      const validate = await call('validate', { ...identify(product), license_key: key });
      expect([validate.status, validate.body]).toEqual([400, bound({ valid: false, error }, key)]);
      const activate = await call('activate', { ...identify(product), license_key: key, domain: 'https://Example.com/' });
      expect([activate.status, activate.body]).toEqual([400, bound({ error }, key, 'example.com')]);
    }
  });

  // Seats are taken by production sites: the domains here are not staging patterns (`second.example` would be, `*.example`).
  it('activates per normalized domain: repeats return the activation, a full license refuses, a freed seat is reusable', async () => {
    const { product, license } = await licensedProduct({ seats: 2 });
    const key = { ...identify(product), license_key: license.licenseKey };
    const first = await call('activate', { ...key, domain: 'https://WWW.Example.com:8080/shop' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ success: true, activation_id: expect.stringMatching(/^act_[a-z2-7]{24}$/), environment: 'production' });
    const again = await call('activate', { ...key, domain: 'example.com' });
    expect([again.status, again.body.activation_id]).toEqual([200, first.body.activation_id]);
    expect((await call('activate', { ...key, domain: 'second.example.com' })).status).toBe(200);
    const full = await call('activate', { ...key, domain: 'third.example.com' });
    expect([full.status, full.body]).toEqual([400, bound({ error: 'License seat limit reached' }, license.licenseKey, 'third.example.com')]);
    // The domain that holds a seat is still answered with its activation when the license is full.
    expect((await call('activate', { ...key, domain: 'EXAMPLE.com.' })).body.activation_id).toBe(first.body.activation_id);
    expect((await call('validate', key)).body.license.activatedCount).toBe(2);

    const off = await call('deactivate', { ...key, domain: 'http://example.com/' });
    expect([off.status, off.body]).toEqual([200, bound({ success: true }, license.licenseKey, 'example.com')]);
    const offAgain = await call('deactivate', { ...key, domain: 'example.com' });
    expect([offAgain.status, offAgain.body]).toEqual([400, bound({ error: 'Activation not found' }, license.licenseKey, 'example.com')]);
    expect((await call('validate', key)).body.license.activatedCount).toBe(1);

    const back = await call('activate', { ...key, domain: 'example.com' });
    expect(back.status).toBe(200);
    expect(back.body.activation_id).not.toBe(first.body.activation_id);
    const byId = await call('deactivate', { ...key, activation_id: back.body.activation_id });
    expect([byId.status, byId.body]).toEqual([200, bound({ success: true }, license.licenseKey)]);
    expect((await call('validate', key)).body.license.activatedCount).toBe(1);
  });

  it('lets staging and local sites activate without a seat: 3 on a 1-seat license leave the seat free, the 4th is refused', async () => {
    const { tenant, product, license } = await licensedProduct({ seats: 1 });
    const key = { ...identify(product), license_key: license.licenseKey };
    const sites = ['http://localhost:8080', 'shop.staging.example.com', 'https://127.0.0.1/wp'];
    for (const domain of sites) {
      const res = await call('activate', { ...key, domain });
      expect([res.status, res.body.environment], domain).toEqual([200, 'staging']);
    }
    expect((await call('validate', key)).body.license).toMatchObject({ seats: 1, activatedCount: 0, stagingCount: 3 });
    const fourth = await call('activate', { ...key, domain: 'dev.shop.com' });
    expect([fourth.status, fourth.body]).toEqual([400, bound({ error: 'Staging activation limit reached' }, license.licenseKey, 'dev.shop.com')]);
    // The seat is still free for the production site.
    const production = await call('activate', { ...key, domain: 'shop.com' });
    expect([production.status, production.body.environment]).toEqual([200, 'production']);
    expect((await call('validate', key)).body.license).toMatchObject({ activatedCount: 1, stagingCount: 3 });
    // An active staging site is still answered with its activation; freeing one lets another in.
    expect((await call('activate', { ...key, domain: 'localhost' })).body).toMatchObject({ success: true, environment: 'staging' });
    expect((await call('deactivate', { ...key, domain: 'localhost' })).status).toBe(200);
    expect((await call('validate', key)).body.license).toMatchObject({ activatedCount: 1, stagingCount: 2 });
    expect((await call('activate', { ...key, domain: 'dev.shop.com' })).body).toMatchObject({ success: true, environment: 'staging' });
    // Every view says which is which.
    const detail = await tenant.get(`/api/licenses/${license.id}`);
    expect(detail.body).toMatchObject({ activatedCount: 1, stagingCount: 3 });
    const environments = Object.fromEntries(
      (detail.body.activations as { domain: string; status: string; environment: string }[]).filter((a) => a.status === 'active').map((a) => [a.domain, a.environment]),
    );
    expect(environments).toEqual({ 'shop.staging.example.com': 'staging', '127.0.0.1': 'staging', 'dev.shop.com': 'staging', 'shop.com': 'production' });
  });

  it("follows the product's own staging patterns and limit", async () => {
    const { tenant } = await licensedProduct();
    const product = await newProduct(tenant, { stagingPatterns: ['*.preview.shop.com'], stagingActivationLimit: 1 });
    const license = await newLicense(tenant, product.id, { seats: 1 });
    const key = { ...identify(product), license_key: license.licenseKey };
    expect((await call('activate', { ...key, domain: 'a.preview.shop.com' })).body.environment).toBe('staging');
    const second = await call('activate', { ...key, domain: 'b.preview.shop.com' });
    expect([second.status, second.body]).toEqual([400, bound({ error: 'Staging activation limit reached' }, license.licenseKey, 'b.preview.shop.com')]);
    // `localhost` is not one of its patterns: a production site, which takes the one seat.
    expect((await call('activate', { ...key, domain: 'localhost' })).body.environment).toBe('production');
    const full = await call('activate', { ...key, domain: 'shop.test' });
    expect([full.status, full.body]).toEqual([400, bound({ error: 'License seat limit reached' }, license.licenseKey, 'shop.test')]);
  });

  it('refuses bad activation input with 400 and writes nothing', async () => {
    const { product, license } = await licensedProduct();
    const key = { ...identify(product), license_key: license.licenseKey };
    const cases: [string, unknown, string][] = [
      ['activate', key, 'Send either domain or machine'],
      ['activate', { ...key, domain: '   ' }, 'Send either domain or machine'],
      ['activate', { ...key, domain: 'https://' }, 'domain is not a valid domain or URL'],
      ['activate', { ...key, domain: ['example.com'] }, 'domain must be a string'],
      ['activate', { ...identify(product), domain: 'example.com' }, 'license_key is required'],
      ['deactivate', key, 'domain, machine or activation_id is required'],
    ];
    for (const [operation, body, error] of cases) {
      const res = await call(operation, body);
      expect([res.status, res.body.error], JSON.stringify(body)).toEqual([400, error]);
    }
    const scalar = await plugin().request('POST', `${prefix}/licenses/activate`, { rawBody: '"x"', headers: { 'content-type': 'application/json' }, origin: null });
    expect(scalar.status).toBe(400);
    expect((await call('validate', key)).body.license.activatedCount).toBe(0);
  });

  it('deactivates only activations of the given license', async () => {
    const { tenant, product, license } = await licensedProduct();
    const other = await newLicense(tenant, product.id);
    const mine = await call('activate', { ...identify(product), license_key: license.licenseKey, domain: 'mine.example' });
    const res = await call('deactivate', { ...identify(product), license_key: other.licenseKey, activation_id: mine.body.activation_id });
    expect([res.status, res.body]).toEqual([400, bound({ error: 'Activation not found' }, other.licenseKey)]);
    const nope = 'NOPE-AAAA-BBBB-CCCC-DDDD';
    const unknown = await call('deactivate', { ...identify(product), license_key: nope, domain: 'mine.example' });
    expect([unknown.status, unknown.body]).toEqual([404, namesProduct ? bound({ error: 'License key not found' }, nope, 'mine.example') : { error: 'License key not found' }]);
  });

  it('never answers from a state older than the latest change to the license', async () => {
    const { tenant, product, license } = await licensedProduct({ seats: 3 });
    const key = { ...identify(product), license_key: license.licenseKey };
    const validate = async (licenseKey = license.licenseKey) => (await call('validate', { ...key, license_key: licenseKey })).body;
    expect((await validate()).license.activatedCount).toBe(0);
    await call('activate', { ...key, domain: 'fresh.example.com' });
    expect((await validate()).license.activatedCount).toBe(1);
    await call('deactivate', { ...key, domain: 'fresh.example.com' });
    expect((await validate()).license.activatedCount).toBe(0);
    await tenant.put(`/api/licenses/${license.id}`, { seats: 5 });
    expect((await validate()).license.seats).toBe(5);
    await tenant.put(`/api/licenses/${license.id}`, { status: 'suspended' });
    expect(await validate()).toEqual(bound({ valid: false, error: 'License is suspended' }, license.licenseKey));
    await tenant.put(`/api/licenses/${license.id}`, { status: 'active' });
    expect((await validate()).valid).toBe(true);

    const regenerated = await tenant.post(`/api/licenses/${license.id}/regenerate`);
    expect(regenerated.status).toBe(200);
    const newKey = regenerated.body.licenseKey as string;
    const unknownKey = (answer: object, domain?: string) => (namesProduct ? bound(answer, license.licenseKey, domain) : answer);
    expect(await validate()).toEqual(unknownKey({ valid: false, error: 'License key not found' }));
    expect((await validate(newKey)).license.key).toBe(newKey);
    const oldKeyActivation = await call('activate', { ...key, domain: 'late.example.com' });
    expect([oldKeyActivation.status, oldKeyActivation.body]).toEqual([404, unknownKey({ error: 'License key not found' }, 'late.example.com')]);

    await tenant.post(`/api/licenses/${license.id}/revoke`);
    expect(await validate(newKey)).toEqual(bound({ valid: false, error: 'License has been revoked' }, newKey));
  });

  it('treats the licenses of a deleted product as unknown', async () => {
    const { tenant, product, license } = await licensedProduct();
    expect((await tenant.delete(`/api/products/${product.id}`)).status).toBe(204);
    const res = await call('validate', { ...identify(product), license_key: license.licenseKey });
    expect(res.status).toBe(404);
    expect(res.body.valid).toBe(false);
  });

  it("refuses another product's license, even another tenant's, when the product is named", async () => {
    const first = await licensedProduct();
    const second = await licensedProduct();
    const sibling = await newProduct(first.tenant);
    for (const license of [second.license, await newLicense(first.tenant, sibling.id)]) {
      const res = await call('validate', { ...identify(first.product), license_key: license.licenseKey, product_slug: first.product.slug });
      // The public key names the product first: another product's license is not found through it.
      expect([res.status, res.body]).toEqual(
        namesProduct
          ? [404, bound({ valid: false, error: 'License key not found' }, license.licenseKey)]
          : [400, bound({ valid: false, error: 'License does not belong to this product' }, license.licenseKey)],
      );
    }
  });
});

describe('edge surface', () => {
  it('answers unknown paths under /v1 with 404 JSON', async () => {
    const res = await plugin().get('/v1/nothing-here', { origin: null });
    expect([res.status, res.body]).toEqual([404, { error: 'Not found' }]);
  });

  it('ignores a public_key sent to the edge', async () => {
    const { license } = await licensedProduct();
    const res = await plugin().post('/v1/licenses/validate', { license_key: license.licenseKey, public_key: 'pk_whatever' }, { origin: null });
    expect(res.body.valid).toBe(true);
  });
});
