/**
 * The JavaScript client's trust features against the local stack, through HTTP: signed answers verified with
 * pinned and fetched keys, offline license files, staging sites and idempotent retries. A forwarding proxy in front
 * of the real service plays the lost answer and the man in the middle.
 */
import { afterEach, describe, expect, inject, it } from 'vitest';
import { newTenant } from '../../../../test/support/client.js';
import { newLicense, newProduct, newRelease, type Product, type Tenant } from '../../../../test/support/licensing-fixtures.js';
import {
  ActivationNotFoundError,
  InvalidRequestError,
  LicenseRevokedError,
  LicensingClient,
  NetworkError,
  OfflineLicenseError,
  ServerError,
  SignatureError,
  memoryStorage,
  type LicensingClientOptions,
  type PublicSigningKey,
} from '../../src/index.js';
import { forwardingProxy, type Interception, type Exchange, type RequestRewrite } from '../support/forwarding-proxy.js';
import { closedPort } from '../support/script-server.js';

const baseUrl = inject('baseUrl');
const closers: { close: () => Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c.close()));
});

async function proxy(intercept?: (exchange: Exchange, index: number) => Interception, rewrite?: RequestRewrite) {
  const server = await forwardingProxy(baseUrl, intercept, rewrite);
  closers.push(server);
  return server;
}

/** The product's keys as its vendor copies them from the dashboard (the product view). */
async function pinnedKeys(tenant: Tenant, product: Product): Promise<PublicSigningKey[]> {
  const keys = (await tenant.get(`/api/products/${product.id}`)).body.signingKeys;
  expect(keys).toHaveLength(1);
  return keys;
}

async function vendor(seats = 2) {
  const tenant = await newTenant();
  const product = await newProduct(tenant);
  const license = await newLicense(tenant, product.id, { seats });
  return { tenant, product, license, publicKeys: await pinnedKeys(tenant, product) };
}

const client = (product: Product, options: Partial<LicensingClientOptions> = {}) =>
  new LicensingClient({ baseUrl, publicKey: product.public_key, productSlug: product.slug, retryBaseMs: 5, ...options });

async function rejection(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error) => error,
  );
}

const tamper = (upstream: Exchange['upstream'], from: string, to: string) => {
  const text = upstream.body.toString('utf8');
  expect(text).toContain(from);
  return { ...upstream, body: Buffer.from(text.replace(from, to)) };
};

describe('signed answers', () => {
  it('verifies every signed call with the pinned keys, each with its own nonce echoed in the signature', async () => {
    const { tenant, product, license, publicKeys } = await vendor();
    await newRelease(tenant, product.id, { version: '1.1.0' });
    const seen = await proxy();
    const licensing = client(product, { baseUrl: seen.url, signing: { publicKeys } });

    expect(await licensing.validate(license.licenseKey)).toMatchObject({ valid: true, source: 'service' });
    const activation = await licensing.activate(license.licenseKey, 'shop.example.com');
    expect(await licensing.check(license.licenseKey, 'shop.example.com')).toMatchObject({ activated: true, activationId: activation.activationId });
    expect(await licensing.checkForUpdate({ licenseKey: license.licenseKey, version: '1.0.0' })).toMatchObject({ latestVersion: '1.1.0' });
    expect((await licensing.fetchOfflineLicense(license.licenseKey, 'shop.example.com')).keyId).toBe(publicKeys[0]!.keyId);
    await licensing.deactivate(license.licenseKey, 'shop.example.com');
    // Signed refusals are verified and typed; a refusal of the request itself is not signed by design and passes.
    expect(await rejection(licensing.deactivate(license.licenseKey, 'shop.example.com'))).toBeInstanceOf(ActivationNotFoundError);
    expect(await rejection(licensing.activate(license.licenseKey, ' '))).toBeInstanceOf(InvalidRequestError);

    const nonces = seen.exchanges.map((exchange) => exchange.requestHeaders['signature-nonce'] as string);
    expect(new Set(nonces).size).toBe(seen.exchanges.length);
    for (const exchange of seen.exchanges.slice(0, -1)) {
      expect(exchange.upstream.headers['signature-input']).toContain(`nonce="${exchange.requestHeaders['signature-nonce']}"`);
    }
  });

  it('refuses a changed body, a missing signature, a replayed answer and another product\'s key with SignatureError, never the cache', async () => {
    const { tenant, product, license, publicKeys } = await vendor();
    let change: ((upstream: Exchange['upstream']) => Interception) | undefined;
    let recorded: Exchange['upstream'] | undefined;
    const mitm = await proxy((exchange) => {
      recorded ??= exchange.upstream;
      return change ? change(exchange.upstream) : 'pass';
    });
    const storage = memoryStorage();
    const licensing = client(product, { baseUrl: mitm.url, signing: { publicKeys }, cache: { storage } });
    expect(await licensing.validate(license.licenseKey)).toMatchObject({ valid: true, source: 'service' });

    const attacks: [string, (upstream: Exchange['upstream']) => Interception][] = [
      ['a changed body', (upstream) => tamper(upstream, '"seats":2', '"seats":9')],
      ['no signature', ({ headers, ...rest }) => ({ ...rest, headers: { 'content-type': headers['content-type']! } })],
      ['an answer recorded earlier (another nonce)', () => recorded!],
    ];
    for (const [name, attack] of attacks) {
      change = attack;
      const error = await rejection(licensing.validate(license.licenseKey));
      expect(error, name).toBeInstanceOf(SignatureError);
    }
    change = undefined;
    expect(mitm.exchanges.length).toBe(4); // never retried

    const strangerKeys = await pinnedKeys(tenant, await newProduct(tenant));
    const fooled = client(product, { signing: { publicKeys: strangerKeys } });
    expect((await rejection(fooled.validate(license.licenseKey))).message).toMatch(/unknown key/);
  });

  it('trusts on first use: fetches the keys once, keeps them, and fetches again for a key id it does not know', async () => {
    const { tenant, product, license } = await vendor();
    const seen = await proxy();
    const storage = memoryStorage();
    const options = { baseUrl: seen.url, signing: { trustOnFirstUse: true as const }, cache: { storage } };
    const first = client(product, options);
    await first.validate(license.licenseKey);
    await first.activate(license.licenseKey, 'shop.example.com');
    const keyFetches = () => seen.exchanges.filter((exchange) => exchange.path.startsWith('/public/v1/signing-key')).length;
    expect(keyFetches()).toBe(1);
    expect(JSON.parse((await storage.get(`licensing-keys:${product.public_key}`))!)).toEqual([
      { keyId: (await pinnedKeys(tenant, product))[0]!.keyId, publicKey: expect.any(String), expiresAt: null },
    ]);
    // Another process with the same storage: no fetch.
    await client(product, options).validate(license.licenseKey);
    expect(keyFetches()).toBe(1);

    // Keys it kept that do not sign these answers (as after a rotation): one more fetch, and the answer verifies.
    const stale = await pinnedKeys(tenant, await newProduct(tenant));
    await storage.set(`licensing-keys:${product.public_key}`, JSON.stringify(stale));
    expect(await client(product, options).validate(license.licenseKey)).toMatchObject({ valid: true });
    expect(keyFetches()).toBe(2);
  });
});

describe('a relay that asks the service with its own key or site', () => {
  it('gets answers the service signed, and the client refuses each one as signed for another request (SignatureError)', async () => {
    const { tenant, product, license, publicKeys } = await vendor();
    // The relay's own paid license, activated on its own site: every answer it gets from the service is genuine.
    const relayKey = (await newLicense(tenant, product.id)).licenseKey;
    const direct = client(product, { signing: { publicKeys } });
    await direct.activate(relayKey, 'relay.example.net');
    await tenant.post(`/api/licenses/${license.id}/revoke`);

    const keySwap = await proxy(undefined, (body) => ({ ...body, license_key: relayKey }));
    const relayed = client(product, { baseUrl: keySwap.url, signing: { publicKeys } });
    const calls: [string, () => Promise<unknown>][] = [
      ['validate', () => relayed.validate(license.licenseKey, { domain: 'relay.example.net' })],
      ['activate', () => relayed.activate(license.licenseKey, 'relay.example.net')],
      ['check', () => relayed.check(license.licenseKey, 'relay.example.net')],
      ['deactivate', () => relayed.deactivate(license.licenseKey, 'other.example.net')],
    ];
    for (const [name, call] of calls) {
      const error = await rejection(call());
      expect(error, name).toBeInstanceOf(SignatureError);
      expect((error as SignatureError).reason, name).toBe('wrong_license_key');
    }
    // What the relay was answered: genuine, signed, valid, for its own key.
    expect(JSON.parse(keySwap.exchanges[0]!.upstream.body.toString())).toMatchObject({ valid: true, license_key: relayKey });

    // The same key, another site: the check the relay got for its own site does not pass for this one.
    const siteSwap = await proxy(undefined, (body) => ({ ...body, domain: 'relay.example.net' }));
    const error = await rejection(client(product, { baseUrl: siteSwap.url, signing: { publicKeys } }).check(relayKey, 'https://www.pirate.example.org/'));
    expect([error instanceof SignatureError, (error as SignatureError).reason]).toEqual([true, 'wrong_domain']);
    // Unchanged, the same calls verify (the domain compared as the service normalizes it).
    expect(await direct.check(relayKey, 'https://WWW.Relay.Example.NET:8443/shop')).toMatchObject({ activated: true });
  });
});

describe('offline license files', () => {
  it('fetches a file for an activated site, keeps it, and answers validate from it when the service cannot be reached', async () => {
    const { tenant, product, license, publicKeys } = await vendor();
    let stored: string | null = null;
    const offline = { load: () => stored, save: (file: string) => void (stored = file) };
    const online = client(product, { signing: { publicKeys }, offline, cache: false });
    await online.activate(license.licenseKey, 'https://www.shop.example.com/');
    const issued = await online.fetchOfflineLicense(license.licenseKey, 'shop.example.com');
    expect(stored).toBe(issued.licenseFile);
    expect(issued.licenseFile).toMatch(/^-----BEGIN LICENSE FILE v1-----\n/);

    const unreachable = client(product, { baseUrl: await closedPort(), signing: { publicKeys }, offline, cache: false });
    const result = await unreachable.validate(license.licenseKey, { domain: 'shop.example.com' });
    expect(result).toMatchObject({
      valid: true,
      source: 'offline',
      license: { key: license.licenseKey, status: 'active', seats: 2, expiresAt: null },
      product: { id: product.id, slug: product.slug },
      offlineLicense: { domain: 'shop.example.com', keyId: issued.keyId },
    });
    if (result.source !== 'offline' || !result.valid) throw new Error('unreachable');
    expect(result.unavailable).toBeInstanceOf(NetworkError);
    expect(result.validUntil.toISOString()).toBe(issued.validUntil);
    // Another site, or no site: the file does not stand in.
    await expect(unreachable.validate(license.licenseKey, { domain: 'other.example.com' })).rejects.toBeInstanceOf(NetworkError);
    await expect(unreachable.validate(license.licenseKey)).rejects.toBeInstanceOf(NetworkError);
    expect(await rejection(unreachable.validateOffline(license.licenseKey, { domain: 'other.example.com' }))).toMatchObject({ reason: 'wrong_domain' });

    // A 5xx after the retries counts as unreachable; a definite refusal does not.
    const failing = await proxy(() => ({ status: 503, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"error":"Service unavailable"}') }));
    const result503 = await client(product, { baseUrl: failing.url, signing: { publicKeys }, offline, cache: false }).validate(license.licenseKey, { domain: 'shop.example.com' });
    expect(result503).toMatchObject({ valid: true, source: 'offline' });
    if (result503.valid) expect(result503.unavailable).toBeInstanceOf(ServerError);
    await tenant.post(`/api/licenses/${license.id}/revoke`);
    const revoked = await online.validate(license.licenseKey, { domain: 'shop.example.com' });
    expect(revoked).toMatchObject({ valid: false, source: 'service' });
    if (!revoked.valid) expect(revoked.error).toBeInstanceOf(LicenseRevokedError);
  });

  it('is refused for a site that is not activated, and refuses a file another product signed', async () => {
    const { tenant, product, license, publicKeys } = await vendor();
    const licensing = client(product, { signing: { publicKeys } });
    expect(await rejection(licensing.fetchOfflineLicense(license.licenseKey, 'never.example.com'))).toBeInstanceOf(ActivationNotFoundError);

    const other = await newProduct(tenant);
    const otherLicense = await newLicense(tenant, other.id);
    const otherClient = client(other, { signing: { publicKeys: await pinnedKeys(tenant, other) } });
    await otherClient.activate(otherLicense.licenseKey, 'shop.example.com');
    const foreign = await otherClient.fetchOfflineLicense(otherLicense.licenseKey, 'shop.example.com');
    const mine = client(product, { signing: { publicKeys }, offline: { load: () => foreign.licenseFile } });
    expect(await rejection(mine.validateOffline(otherLicense.licenseKey, { domain: 'shop.example.com' }))).toMatchObject({ reason: 'unknown_key' });
    expect(await rejection(mine.validateOffline(otherLicense.licenseKey, { domain: 'shop.example.com' }))).toBeInstanceOf(OfflineLicenseError);
  });
});

describe('staging sites', () => {
  it('reports localhost and *.test activations as staging, which leave the seats free', async () => {
    const { product, license, publicKeys } = await vendor(1);
    const licensing = client(product, { signing: { publicKeys } });
    expect(await licensing.activate(license.licenseKey, 'http://localhost:8080/')).toMatchObject({ environment: 'staging' });
    expect(await licensing.activate(license.licenseKey, 'shop.test')).toMatchObject({ environment: 'staging' });
    expect(await licensing.validate(license.licenseKey)).toMatchObject({ valid: true, license: { seats: 1, activatedCount: 0, stagingCount: 2 } });
    // The one seat is still free for the production site.
    expect(await licensing.activate(license.licenseKey, 'shop.example.com')).toMatchObject({ environment: 'production' });
    expect(await licensing.validate(license.licenseKey)).toMatchObject({ valid: true, license: { activatedCount: 1, stagingCount: 2 } });
  });
});

describe('Idempotency-Key', () => {
  it('an activate whose answer was lost is retried with the same key and nonce and gets the first answer replayed: one activation', async () => {
    const { tenant, product, license, publicKeys } = await vendor();
    const lossy = await proxy((_exchange, index) => (index === 0 ? 'drop' : 'pass'));
    const licensing = client(product, { baseUrl: lossy.url, signing: { publicKeys } });
    const activation = await licensing.activate(license.licenseKey, 'shop.example.com');

    const [first, retry] = lossy.exchanges;
    expect(lossy.exchanges).toHaveLength(2);
    expect(retry!.requestHeaders['idempotency-key']).toBe(first!.requestHeaders['idempotency-key']);
    expect(retry!.requestHeaders['signature-nonce']).toBe(first!.requestHeaders['signature-nonce']);
    expect(retry!.upstream.headers['idempotent-replayed']).toBe('true');
    expect(retry!.upstream.headers.signature).toBe(first!.upstream.headers.signature);
    expect(activation.activationId).toBe(JSON.parse(first!.upstream.body.toString()).activation_id);
    const activations = (await tenant.get(`/api/licenses/${license.id}`)).body.activations;
    expect(activations).toHaveLength(1);
  });

  it('a deactivate answered 503 after the service acted is retried into the replayed success, not "Activation not found"', async () => {
    const { product, license, publicKeys } = await vendor();
    const licensing = client(product, { signing: { publicKeys } });
    await licensing.activate(license.licenseKey, 'shop.example.com');
    const failing = await proxy((_exchange, index) =>
      index === 0 ? { status: 503, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"error":"Service unavailable"}') } : 'pass',
    );
    await client(product, { baseUrl: failing.url, signing: { publicKeys } }).deactivate(license.licenseKey, 'shop.example.com');
    expect(failing.exchanges.map((exchange) => exchange.upstream.status)).toEqual([200, 200]);
    expect(failing.exchanges[1]!.upstream.headers['idempotent-replayed']).toBe('true');
    expect(await licensing.check(license.licenseKey, 'shop.example.com')).toEqual({ activated: false, activationId: null });
  });
});
