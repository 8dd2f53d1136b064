import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createEdgeHandler } from '../../../functions/edge/app.js';
import { createManagementDeps, createManagementHandler } from '../../../functions/management/app.js';
import { createPublicDeps, createPublicHandler } from '../../../functions/public/app.js';
import { createGateway, type LambdaHandler } from '../../../infra/local/gateway.js';
import type { Surface } from '../../../infra/routes.js';
import { ROUTES } from '../../../infra/routes.js';
import { ALL_CONFIG_SECTIONS, loadConfig } from '../../../shared/platform/config.js';
import { createDeps } from '../../../shared/platform/runtime.js';
import { Client, DASHBOARD_ORIGIN, newTenant } from '../../support/client.js';
import { licensedProduct, newLicense, newProduct, newRelease, type Tenant } from '../../support/licensing-fixtures.js';
import { isSigned, rawCall, verifyAnswer, type PublicKeyEntry, type RawAnswer } from '../../support/signature-verifier.js';
import { localData } from '../../support/table.js';

const DAY_MS = 86_400_000;

async function keysOf(publicKey: string, baseUrl?: string): Promise<PublicKeyEntry[]> {
  const res = await rawCall('GET', `/public/v1/signing-key?public_key=${publicKey}`, { baseUrl });
  expect(res.status, res.body.toString()).toBe(200);
  return res.json.keys;
}

const post = (path: string, body: unknown, headers: Record<string, string> = {}, baseUrl?: string) => rawCall('POST', path, { body, headers, baseUrl });

/** The same answer with one byte of its body changed, as a man in the middle (or a cracked plugin) would. */
function tampered(answer: RawAnswer, from: string, to: string): RawAnswer {
  const text = answer.body.toString('utf8');
  expect(text).toContain(from);
  return { ...answer, body: Buffer.from(text.replace(from, to), 'utf8') };
}

describe('signed answers (RFC 9421, Ed25519)', () => {
  it('signs validate over status, Content-Digest, its request, its created time and the nonce; a tampered body, status, time or nonce fails an independent verifier', async () => {
    const { product, license } = await licensedProduct();
    const keys = await keysOf(product.public_key);
    expect(keys).toEqual([expect.objectContaining({ keyId: expect.stringMatching(/^sig_[a-z2-7]{24}$/), algorithm: 'ed25519', current: true, expiresAt: null })]);
    expect(Buffer.from(keys[0]!.publicKey, 'base64')).toHaveLength(32);

    const nonce = randomBytes(16).toString('base64url');
    const answer = await post('/v1/licenses/validate', { license_key: license.licenseKey }, { 'signature-nonce': nonce });
    expect(answer.status).toBe(200);
    expect(answer.json.valid).toBe(true);
    expect(answer.headers['signature-input']).toMatch(/^sig1=\("@status" "content-digest" "@method";req "@path";req\);created=\d+;keyid="sig_[a-z2-7]{24}";alg="ed25519";nonce="/);
    const created = Number(/;created=(\d+);/.exec(answer.headers['signature-input']!)![1]);
    expect(Math.abs(created * 1000 - Date.now())).toBeLessThan(60_000);
    expect(await verifyAnswer(answer, keys, nonce)).toEqual({ valid: true, keyId: keys[0]!.keyId, nonce });

    // What a cracked plugin's fake server would like to say, and what a replay would carry.
    expect((await verifyAnswer(tampered(answer, '"seats":2', '"seats":9'), keys, nonce)).valid).toBe(false);
    expect((await verifyAnswer({ ...answer, status: 201 }, keys, nonce)).valid).toBe(false);
    const postdated = answer.headers['signature-input']!.replace(`;created=${created};`, `;created=${created + DAY_MS / 1000};`);
    expect((await verifyAnswer({ ...answer, headers: { ...answer.headers, 'signature-input': postdated } }, keys, nonce)).valid).toBe(false);
    // A proxy's own Date (API Gateway, CloudFront) is not covered, so it breaks nothing.
    expect((await verifyAnswer({ ...answer, headers: { ...answer.headers, date: new Date(Date.now() + DAY_MS).toUTCString() } }, keys, nonce)).valid).toBe(true);
    expect((await verifyAnswer(answer, keys, 'another-nonce')).valid).toBe(false);
    const otherKeys = await keysOf((await newProduct(await newTenant())).public_key);
    expect((await verifyAnswer(answer, otherKeys.map((key) => ({ ...key, keyId: keys[0]!.keyId })), nonce)).valid).toBe(false);

    // Without a nonce, none is signed.
    const plain = await post('/v1/licenses/validate', { license_key: license.licenseKey });
    expect(plain.headers['signature-input']).not.toContain('nonce');
    expect((await verifyAnswer(plain, keys)).valid).toBe(true);
  });

  it('signs activate, deactivate, check and the public validate, refusals included once the product is known', async () => {
    const { tenant, product, license } = await licensedProduct({ seats: 1 });
    const keys = await keysOf(product.public_key);
    const pk = { public_key: product.public_key, license_key: license.licenseKey };
    const signed: [string, RawAnswer, number][] = [
      ['activate', await post('/v1/licenses/activate', { license_key: license.licenseKey, domain: 'one.example.com' }), 200],
      ['activate when full', await post('/public/v1/licenses/activate', { ...pk, domain: 'two.example.com' }), 400],
      ['check', await post('/public/v1/licenses/check', { ...pk, domain: 'one.example.com' }), 200],
      ['check of another domain', await post('/public/v1/licenses/check', { ...pk, domain: 'three.example.com' }), 200],
      ['public validate', await post('/public/v1/licenses/validate', pk), 200],
      ['wrong product_slug', await post('/v1/licenses/validate', { license_key: license.licenseKey, product_slug: 'not-this-one' }), 400],
      ['deactivate', await post('/public/v1/licenses/deactivate', { ...pk, domain: 'one.example.com' }), 200],
      ['deactivate again', await post('/v1/licenses/deactivate', { license_key: license.licenseKey, domain: 'one.example.com' }), 400],
      // The public key names the product: an unknown license key of it is answered for it.
      ['unknown key through a public key', await post('/public/v1/licenses/validate', { ...pk, license_key: 'NOPE-AAAA-BBBB-CCCC-DDDD' }), 404],
    ];
    expect((await tenant.put(`/api/licenses/${license.id}`, { status: 'suspended' })).status).toBe(200);
    signed.push(['suspended', await post('/v1/licenses/validate', { license_key: license.licenseKey }, { 'signature-nonce': 'n-1' }), 400]);
    for (const [name, answer, status] of signed) {
      expect(answer.status, name).toBe(status);
      expect(await verifyAnswer(answer, keys), name).toMatchObject({ valid: true, keyId: keys[0]!.keyId });
    }
    expect(signed.at(-1)![1].json).toEqual({ valid: false, error: 'License is suspended', license_key: license.licenseKey });
    expect((await verifyAnswer(signed.at(-1)![1], keys, 'n-1')).valid).toBe(true);
  });

  it('binds the answers of validate, activate, deactivate and check to their request: its method, path, key and domain', async () => {
    const { tenant, product, license } = await licensedProduct({ seats: 1 });
    const keys = await keysOf(product.public_key);
    const pk = { public_key: product.public_key, license_key: license.licenseKey };
    const activated = await post('/public/v1/licenses/activate', { ...pk, domain: 'https://WWW.Shop.Example.com:8443/wp' });
    const answers: [string, RawAnswer, Record<string, unknown>][] = [
      // The key exactly as sent (the service trims it before looking it up), the domain as the service normalized it.
      ['validate', await post('/v1/licenses/validate', { license_key: ` ${license.licenseKey} `, site: 'Shop.Example.com.' }), { license_key: ` ${license.licenseKey} `, domain: 'shop.example.com' }],
      ['activate', activated, { license_key: license.licenseKey, domain: 'shop.example.com' }],
      ['check', await post('/public/v1/licenses/check', { ...pk, domain: 'shop.example.com' }), { activated: true, license_key: license.licenseKey, domain: 'shop.example.com' }],
      ['validate without a domain', await post('/public/v1/licenses/validate', pk), { valid: true, license_key: license.licenseKey }],
      ['full', await post('/v1/licenses/activate', { license_key: license.licenseKey, domain: 'two.example.com' }), { error: 'License seat limit reached', license_key: license.licenseKey, domain: 'two.example.com' }],
      ['deactivate by id', await post('/v1/licenses/deactivate', { license_key: license.licenseKey, activation_id: activated.json.activation_id }), { success: true, license_key: license.licenseKey }],
    ];
    for (const [name, answer, fields] of answers) {
      expect(answer.json, name).toMatchObject(fields);
      if (!('domain' in fields)) expect(answer.json, name).not.toHaveProperty('domain');
      expect(answer.headers['signature-input'], name).toMatch(/^sig1=\("@status" "content-digest" "@method";req "@path";req\);/);
      expect(await verifyAnswer(answer, keys, undefined, { bound: true }), name).toMatchObject({ valid: true });
    }
    // An answer handed to another request than its own does not verify: the check's `activated: true` for an activate,
    // the deactivate's `success: true` for an activate (same method, another path).
    const [, check] = answers[2]!;
    const [, deactivated] = answers[5]!;
    expect((await verifyAnswer({ ...check, request: { method: 'POST', path: '/public/v1/licenses/activate' } }, keys, undefined, { bound: true })).valid).toBe(false);
    expect((await verifyAnswer({ ...deactivated, request: { method: 'POST', path: '/v1/licenses/activate' } }, keys, undefined, { bound: true })).valid).toBe(false);

    // A relay that asks with its own key gets an answer naming that key, which the client that asked for another refuses.
    const relayed = await newLicense(tenant, product.id);
    const answer = await post('/public/v1/licenses/validate', { ...pk, license_key: relayed.licenseKey, domain: 'relay.example.net' });
    expect(await verifyAnswer(answer, keys, undefined, { bound: true })).toMatchObject({ valid: true });
    expect(answer.json).toMatchObject({ valid: true, license_key: relayed.licenseKey, domain: 'relay.example.net' });

    // The answers that are not bound keep their components: offline files (bound by their own content), the update check.
    const offline = await post('/public/v1/licenses/offline', { ...pk, license_key: relayed.licenseKey, domain: 'relay.example.net' });
    expect(offline.headers['signature-input']).toMatch(/^sig1=\("@status" "content-digest"\);/);
    expect(offline.json).not.toHaveProperty('license_key');
  });

  it('does not sign answers given before the product is known, and refuses a malformed nonce', async () => {
    const { license } = await licensedProduct();
    const unsigned: [string, RawAnswer, number][] = [
      ['unknown key on /v1', await post('/v1/licenses/validate', { license_key: 'NOPE-AAAA-BBBB-CCCC-DDDD' }), 404],
      ['missing field', await post('/v1/licenses/activate', { license_key: license.licenseKey }), 400],
      ['unknown public key', await post('/public/v1/licenses/check', { public_key: `pk_${'a'.repeat(32)}`, license_key: license.licenseKey, domain: 'x.example.com' }), 404],
      ['bad nonce', await post('/v1/licenses/validate', { license_key: license.licenseKey }, { 'signature-nonce': 'has space' }), 400],
      ['unknown slug', await rawCall('GET', '/v1/wp/update-check?slug=no-such-product-here&license_key=X&version=1'), 404],
    ];
    for (const [name, answer, status] of unsigned) {
      expect(answer.status, name).toBe(status);
      expect(isSigned(answer), name).toBe(false);
    }
    expect(unsigned[3]![1].json).toEqual({ valid: false, error: 'Signature-Nonce must be 1 to 128 letters, digits or - _ . ~ + / =' });
  });

  it('signs the update check, with or without a usable key', async () => {
    const { tenant, product, license } = await licensedProduct();
    await newRelease(tenant, product.id, { version: '1.2.0' });
    const keys = await keysOf(product.public_key);
    for (const key of [license.licenseKey, 'NOPE-AAAA-BBBB-CCCC-DDDD']) {
      const answer = await rawCall('GET', `/v1/wp/update-check?slug=${product.slug}&license_key=${key}&version=1.0`, { headers: { 'signature-nonce': 'wp-42' } });
      expect(answer.status).toBe(200);
      expect(answer.json.new_version).toBe('1.2.0');
      expect(await verifyAnswer(answer, keys, 'wp-42')).toMatchObject({ valid: true });
      expect((await verifyAnswer(tampered(answer, '1.2.0', '9.9.9'), keys, 'wp-42')).valid).toBe(false);
    }
  });

  it('lets browsers send a nonce and read the signature', async () => {
    const { product, license } = await licensedProduct();
    const preflight = await rawCall('OPTIONS', '/public/v1/licenses/validate', { headers: { origin: 'https://shop.example', 'access-control-request-headers': 'signature-nonce' } });
    expect(preflight.headers['access-control-allow-headers']).toContain('signature-nonce');
    const answer = await post('/public/v1/licenses/validate', { public_key: product.public_key, license_key: license.licenseKey }, { origin: 'https://shop.example' });
    expect(answer.headers['access-control-expose-headers']?.split(', ')).toEqual(expect.arrayContaining(['content-digest', 'date', 'signature', 'signature-input']));
  });

  it('lists the keys on the management API and the public one; a missing or unknown public_key is refused', async () => {
    const { tenant, product } = await licensedProduct();
    const view = await tenant.get(`/api/products/${product.id}`);
    const listed = await keysOf(product.public_key);
    expect(view.body.signingKeys).toEqual(listed);
    expect(listed[0]!.publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    expect(view.body.offlineValidityDays).toBe(30);
    expect(JSON.stringify(view.body)).not.toContain('sealed');
    const missing = await rawCall('GET', '/public/v1/signing-key');
    expect([missing.status, missing.json.error]).toEqual([400, 'public_key is required']);
    const unknown = await rawCall('GET', `/public/v1/signing-key?public_key=pk_${'b'.repeat(32)}`);
    expect([unknown.status, unknown.json]).toEqual([404, { error: 'Invalid public_key' }]);
    expect((await tenant.delete(`/api/products/${product.id}`)).status).toBe(204);
    expect((await rawCall('GET', `/public/v1/signing-key?public_key=${product.public_key}`)).status).toBe(404);
  });

  it('answers unsigned for a product made before signing keys, until its vendor rotates one in', async () => {
    const tenant = await newTenant();
    const legacy = await newProduct(tenant);
    // The product item as it was before signing keys existed (no surface has read it yet, so none has it cached).
    await localData().entities.product.patch({ productId: legacy.id }).remove(['signingKeys', 'signingKeyId']).go();
    const legacyLicense = await newLicense(tenant, legacy.id);
    expect(await keysOf(legacy.public_key)).toEqual([]);
    const answer = await post('/v1/licenses/validate', { license_key: legacyLicense.licenseKey });
    expect([answer.status, isSigned(answer)]).toEqual([200, false]);
    expect((await post('/public/v1/licenses/activate', { public_key: legacy.public_key, license_key: legacyLicense.licenseKey, domain: 'old.example.com' })).status).toBe(200);
    const offline = await post('/public/v1/licenses/offline', { public_key: legacy.public_key, license_key: legacyLicense.licenseKey, domain: 'old.example.com' });
    expect([offline.status, offline.json]).toEqual([400, { error: 'Offline license files are not available for this product' }]);

    const rotated = await tenant.post(`/api/products/${legacy.id}/signing-key/rotate`);
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    expect(rotated.body.signingKeys).toEqual([expect.objectContaining({ current: true, expiresAt: null })]);
    expect(await keysOf(legacy.public_key)).toEqual(rotated.body.signingKeys);
  });
});

/**
 * Rotation, with the management, edge and public functions behind a gateway of the test's own on the shared
 * table: a new edge handler is a new container, whose product cache takes the rotated key in at once.
 */
describe('signing key rotation', () => {
  let server: Server;
  let baseUrl: string;
  let vendor: Tenant;
  const config = loadConfig({
    RUNTIME: 'local', TABLE_NAME: inject('tableName'), DYNAMODB_ENDPOINT: inject('dynamoEndpoint'), RATE_LIMIT_SCALE: '1000',
    DASHBOARD_URL: DASHBOARD_ORIGIN, LOCAL_PROVIDER_KEY: randomBytes(32).toString('base64'),
  }, ALL_CONFIG_SECTIONS);
  const handlers = {
    management: createManagementHandler(createManagementDeps(config)),
    edge: createEdgeHandler(createDeps(config, 'edge')),
    public: createPublicHandler(createPublicDeps(config)),
  } as unknown as Record<Surface, LambdaHandler>;

  beforeAll(async () => {
    server = createGateway({ routes: ROUTES, handlers, localRoutes: {} });
    await new Promise<void>((resolve) => server.listen(0, resolve));
    baseUrl = `http://localhost:${(server.address() as AddressInfo).port}`;
    const client = new Client(baseUrl);
    const res = await client.post('/api/auth/register', { email: `rotate-${randomBytes(4).toString('hex')}@example.com`, password: 'correct horse battery' });
    expect(res.status).toBe(201);
    vendor = Object.assign(client, { email: '', password: '', userId: res.body.user.id as string });
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('makes a new current key, keeps the old one valid for its grace period, and only the current key signs', async () => {
    const product = await newProduct(vendor);
    const license = await newLicense(vendor, product.id);
    const validate = (url = baseUrl) => post('/v1/licenses/validate', { license_key: license.licenseKey }, {}, url);
    const [first] = await keysOf(product.public_key, baseUrl);
    expect((await verifyAnswer(await validate(), [first!])).keyId).toBe(first!.keyId);

    const rotated = await vendor.post(`/api/products/${product.id}/signing-key/rotate`);
    expect(rotated.status).toBe(200);
    const keys = await keysOf(product.public_key, baseUrl);
    expect(rotated.body.signingKeys).toEqual(keys);
    const [second, old] = keys;
    expect(second).toMatchObject({ current: true, expiresAt: null });
    expect(old).toMatchObject({ keyId: first!.keyId, current: false });
    expect(Math.abs(Date.parse(old!.expiresAt!) - (Date.now() + 7 * DAY_MS))).toBeLessThan(60_000);

    // This container still has the product cached (at most 60 s): it signs with the old key, which verifiers accept.
    expect(await verifyAnswer(await validate(), keys)).toMatchObject({ valid: true, keyId: first!.keyId });
    // A container that reads the product now signs with the new key only.
    const fresh = createGateway({ routes: ROUTES, handlers: { ...handlers, edge: createEdgeHandler(createDeps(config, 'edge')) } as never, localRoutes: {} });
    await new Promise<void>((resolve) => fresh.listen(0, resolve));
    try {
      const answer = await validate(`http://localhost:${(fresh.address() as AddressInfo).port}`);
      expect(await verifyAnswer(answer, keys)).toMatchObject({ valid: true, keyId: second!.keyId });
      expect((await verifyAnswer(answer, [old!])).valid).toBe(false);
    } finally {
      fresh.closeAllConnections();
      await new Promise((resolve) => fresh.close(resolve));
    }

    // A second rotation keeps both earlier keys while their grace lasts.
    const again = await vendor.post(`/api/products/${product.id}/signing-key/rotate`);
    expect(again.body.signingKeys.map((key: PublicKeyEntry) => key.keyId)).toEqual([expect.any(String), second!.keyId, first!.keyId]);
    expect(again.body.signingKeys[2].expiresAt).toBe(old!.expiresAt);
    const other = await vendor.post(`/api/products/${(await newProduct(await newTenantOn(baseUrl))).id}/signing-key/rotate`);
    expect([other.status, other.body]).toEqual([404, { error: 'Product not found' }]);
  });
});

async function newTenantOn(baseUrl: string): Promise<Tenant> {
  const client = new Client(baseUrl);
  const res = await client.post('/api/auth/register', { email: `other-${randomBytes(4).toString('hex')}@example.com`, password: 'correct horse battery' });
  return Object.assign(client, { email: '', password: '', userId: res.body.user.id as string });
}
