/** Bundles (DECISIONS §23): one key for every product a bundle includes, one seat per site across them. */
import { randomBytes } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { edgeEvent } from '../../../bench/support/fixtures.js';
import { createEdgeHandler } from '../../../functions/edge/app.js';
import { FUNCTION_CONFIG_SECTIONS, loadConfig } from '../../../shared/platform/config.js';
import type { HttpEvent, HttpResult } from '../../../shared/platform/http/types.js';
import { createLoadedDeps } from '../../../shared/platform/runtime.js';
import { newTenant } from '../../support/client.js';
import { newLicense, newProduct, newRelease, plugin, type Tenant } from '../../support/licensing-fixtures.js';
import { rawCall, verifyAnswer, type PublicKeyEntry } from '../../support/signature-verifier.js';

const post = (path: string, payload: unknown) => rawCall('POST', path, { body: payload });
const edgeGet = (path: string, query: Record<string, string>) => plugin().get(`${path}?${new URLSearchParams(query)}`, { origin: null });
const keysOf = async (publicKey: string): Promise<PublicKeyEntry[]> => (await rawCall('GET', `/public/v1/signing-key?public_key=${publicKey}`)).json.keys;

/** Three plugins of one vendor and a bundle of the first two. */
async function bundleShop(tenant?: Tenant) {
  const owner = tenant ?? (await newTenant());
  const [first, second, outside] = [await newProduct(owner), await newProduct(owner), await newProduct(owner)];
  const bundle = await newProduct(owner, { productType: 'bundle', includes: [first.id, second.id] });
  return { tenant: owner, first, second, outside, bundle };
}

describe('bundles', () => {
  it('include 2–100 live products of the account, never themselves or another bundle; every bad list is 400 and writes nothing', async () => {
    const { tenant, first, second, bundle } = await bundleShop();
    expect(bundle).toMatchObject({ productType: 'bundle', includes: [first.id, second.id] });
    const stranger = await newProduct(await newTenant());
    const refusals: [Record<string, unknown>, string][] = [
      [{ productType: 'bundle', includes: [first.id] }, 'A bundle includes 2 to 100 products'],
      [{ productType: 'bundle', includes: [first.id, first.id] }, 'A bundle includes 2 to 100 products'],
      [{ productType: 'bundle' }, 'A bundle includes 2 to 100 products'],
      [{ productType: 'bundle', includes: [first.id, stranger.id] }, `includes: ${stranger.id} is not a product of this account`],
      [{ productType: 'bundle', includes: [first.id, 'prd_nosuchproductaaaaaaaaaa'] }, 'includes: prd_nosuchproductaaaaaaaaaa is not a product of this account'],
      [{ productType: 'bundle', includes: [first.id, bundle.id] }, 'A bundle cannot include another bundle'],
      [{ productType: 'plugin', includes: [first.id, second.id] }, 'includes is only for a product of type bundle'],
    ];
    for (const [fields, error] of refusals) {
      const res = await tenant.post('/api/products', { name: 'Refused bundle', ...fields });
      expect([res.status, res.body.error], JSON.stringify(fields)).toEqual([400, error]);
    }
    const itself = await tenant.put(`/api/products/${bundle.id}`, { includes: [bundle.id, first.id] });
    expect([itself.status, itself.body.error]).toEqual([400, 'A bundle cannot include itself']);
    expect((await tenant.get('/api/products?search=refused')).body.items).toEqual([]);
    expect((await tenant.get(`/api/products/${bundle.id}`)).body.includes).toEqual([first.id, second.id]);
  });

  it('a bundle key validates and activates for each included product, once per site, signed with its key, and is 403 for a third', async () => {
    const { tenant, first, second, outside, bundle } = await bundleShop();
    const license = await newLicense(tenant, bundle.id, { seats: 1 });
    const key = license.licenseKey;
    const products = [first, second].map(({ id, slug, name }) => ({ id, slug, name }));

    const validated = await post('/v1/licenses/validate', { license_key: key, product_slug: first.slug, domain: 'shop.example.com' });
    expect(validated.status, validated.body.toString()).toBe(200);
    expect(validated.json).toMatchObject({ valid: true, product: { id: first.id, slug: first.slug }, products });
    // Signed with the named product's key, which its plugin ships; the bundle's key does not verify it.
    expect((await verifyAnswer(validated, await keysOf(first.public_key), undefined, { bound: true })).valid).toBe(true);
    expect((await verifyAnswer(validated, await keysOf(bundle.public_key), undefined, { bound: true })).valid).toBe(false);
    // No product named: the bundle's own answer.
    expect((await post('/v1/licenses/validate', { license_key: key })).json).toMatchObject({ valid: true, product: { id: bundle.id }, products });
    const publicValid = await post('/public/v1/licenses/validate', { public_key: second.public_key, license_key: key });
    expect(publicValid.json).toMatchObject({ valid: true, product: { id: second.id }, products });

    // A product outside the bundle: 403 on every operation, by slug or public key.
    const refused = { error: 'License does not cover this product' };
    expect(await post('/v1/licenses/validate', { license_key: key, product_slug: outside.slug })).toMatchObject({ status: 403, json: { valid: false, ...refused } });
    expect(await post('/public/v1/licenses/validate', { public_key: outside.public_key, license_key: key })).toMatchObject({ status: 403, json: { valid: false, ...refused } });
    expect(await post('/v1/licenses/activate', { license_key: key, product_slug: outside.slug, domain: 'shop.example.com' })).toMatchObject({ status: 403, json: refused });
    expect(await post('/public/v1/licenses/check', { public_key: outside.public_key, license_key: key, domain: 'shop.example.com' })).toMatchObject({ status: 403, json: refused });

    // One seat per site, whichever included products it runs.
    const one = await post('/v1/licenses/activate', { license_key: key, product_slug: first.slug, domain: 'shop.example.com' });
    const two = await post('/public/v1/licenses/activate', { public_key: second.public_key, license_key: key, domain: 'https://www.shop.example.com/' });
    expect([one.status, two.status]).toEqual([200, 200]);
    expect(two.json.activation_id).toBe(one.json.activation_id);
    expect((await tenant.get(`/api/licenses/${license.id}`)).body).toMatchObject({ activatedCount: 1, seats: 1 });
    expect(await post('/v1/licenses/activate', { license_key: key, product_slug: second.slug, domain: 'other.example.com' })).toMatchObject({ status: 400, json: { error: 'License seat limit reached' } });
    expect((await post('/public/v1/licenses/check', { public_key: second.public_key, license_key: key, domain: 'shop.example.com' })).json).toMatchObject({ activated: true, activation_id: one.json.activation_id });

    // An offline file for the named product, verified with its key.
    const offline = await post('/public/v1/licenses/offline', { public_key: second.public_key, license_key: key, domain: 'shop.example.com' });
    expect(offline.status, offline.body.toString()).toBe(200);
    expect(offline.json.key_id).toBe((await keysOf(second.public_key))[0]!.keyId);

    const deactivated = await post('/public/v1/licenses/deactivate', { public_key: first.public_key, license_key: key, domain: 'shop.example.com' });
    expect(deactivated.status).toBe(200);
    expect((await tenant.get(`/api/licenses/${license.id}`)).body.activatedCount).toBe(0);
  });

  it('a bundle key gets updates, versions and downloads of each included product, and none of a third', async () => {
    const { tenant, first, second, outside, bundle } = await bundleShop();
    const license = await newLicense(tenant, bundle.id);
    const key = license.licenseKey;
    const releases = { first: await newRelease(tenant, first.id, { version: '1.2.0' }), second: await newRelease(tenant, second.id, { version: '2.0.1' }) };
    const outsideRelease = await newRelease(tenant, outside.id, { version: '3.0.0' });

    for (const [product, release] of [[first, releases.first], [second, releases.second]] as const) {
      const check = await edgeGet('/v1/wp/update-check', { slug: product.slug, license_key: key, version: '1.0.0', domain: 'shop.example.com' });
      expect(check.status, check.text).toBe(200);
      expect(check.body).toMatchObject({ slug: product.slug, new_version: release.version, package: expect.stringContaining(`/v1/download/${release.id}?`) });
      const versions = await edgeGet('/v1/wp/versions', { slug: product.slug, license_key: key });
      expect(versions.status, versions.text).toBe(200);
      expect(versions.body.versions.map((v: { version: string }) => v.version)).toEqual([release.version]);
      const packageUrl = new URL(check.body.package);
      const download = await plugin().get(packageUrl.pathname + packageUrl.search, { origin: null });
      expect(download.status, download.text).toBe(302);
    }
    expect((await tenant.get(`/api/products/${second.id}/releases/${releases.second.id}`)).body.downloadCount).toBe(1);

    // A product outside the bundle: its update check offers the release without a package; versions and downloads are 403.
    const outsideCheck = await edgeGet('/v1/wp/update-check', { slug: outside.slug, license_key: key, version: '1.0.0' });
    expect(outsideCheck.status).toBe(200);
    expect(outsideCheck.body.new_version).toBe('3.0.0');
    expect(outsideCheck.body).not.toHaveProperty('package');
    const refused = { error: 'License does not cover this product' };
    expect(await edgeGet('/v1/wp/versions', { slug: outside.slug, license_key: key })).toMatchObject({ status: 403, body: refused });
    expect(await edgeGet(`/v1/download/${outsideRelease.id}`, { license_key: key })).toMatchObject({ status: 403, body: refused });

    // A bundled product deleted: not found, never 5xx; the other included product goes on updating.
    expect((await tenant.delete(`/api/products/${second.id}`)).status).toBe(204);
    expect((await edgeGet('/v1/wp/update-check', { slug: second.slug, license_key: key, version: '1.0.0' })).status).toBe(404);
    // The edge's cached catalog sees the deletion within 60 s (then 404); never a 5xx meanwhile.
    expect((await edgeGet(`/v1/download/${releases.second.id}`, { license_key: key })).status).toBeLessThan(500);
    expect((await edgeGet('/v1/wp/update-check', { slug: first.slug, license_key: key, version: '1.0.0' })).body.package).toBeDefined();
  });

  it('a deleted included product is no longer covered, and nothing answers 5xx', async () => {
    const { tenant, first, second, bundle } = await bundleShop();
    const license = await newLicense(tenant, bundle.id);
    expect((await tenant.delete(`/api/products/${second.id}`)).status).toBe(204);
    // Its public key is gone at once; the edge's cached catalog sees the deletion within 60 s.
    expect(await post('/public/v1/licenses/validate', { public_key: second.public_key, license_key: license.licenseKey })).toMatchObject({ status: 404, json: { error: 'Invalid public_key' } });
    expect((await post('/public/v1/licenses/validate', { public_key: first.public_key, license_key: license.licenseKey })).json).toMatchObject({ valid: true, product: { id: first.id } });
    const answer = await post('/v1/licenses/validate', { license_key: license.licenseKey, product_slug: second.slug });
    expect(answer.status).toBeLessThan(500);
    // The bundle still answers for itself, its products without the deleted one once the cache has it.
    expect((await tenant.get(`/api/products/${bundle.id}`)).body.includes).toEqual([first.id, second.id]);
  });

  it('a warm validate of a bundle key named with an included product is one DynamoDB request, its update check two as any key\'s: the bundle comes from the cached catalog', async () => {
    const { tenant, first, bundle } = await bundleShop();
    const license = await newLicense(tenant, bundle.id);
    const env = { RUNTIME: 'local', TABLE_NAME: inject('tableName'), DYNAMODB_ENDPOINT: inject('dynamoEndpoint'), LOCAL_PROVIDER_KEY: randomBytes(32).toString('base64') };
    const deps = await createLoadedDeps(loadConfig(env, FUNCTION_CONFIG_SECTIONS.edge), 'edge');
    let requests = 0;
    for (const client of [deps.clients.table, deps.clients.documents]) client.middlewareStack.add((next) => (args) => (requests++, next(args)), { step: 'initialize', name: 'countRequests' });
    const handler = createEdgeHandler(deps) as unknown as (event: HttpEvent, context: unknown) => Promise<HttpResult>;
    const validate = async () => {
      requests = 0;
      const result = await handler(edgeEvent('POST', '/v1/licenses/validate', { body: { license_key: license.licenseKey, product_slug: first.slug } }), {});
      return { status: result.statusCode, requests };
    };
    expect((await validate()).status).toBe(200); // cold: the catalog loads the bundle and its products
    expect(await validate()).toEqual({ status: 200, requests: 1 });
    // The update check reads the license and the product item, as for any key: the bundle adds no request.
    const check = async () => {
      requests = 0;
      const result = await handler(edgeEvent('GET', '/v1/wp/update-check', { query: { slug: first.slug, license_key: license.licenseKey, version: '1.0.0' } }), {});
      return { status: result.statusCode, requests };
    };
    expect((await check()).status).toBe(200);
    expect(await check()).toEqual({ status: 200, requests: 2 });
  });
});
