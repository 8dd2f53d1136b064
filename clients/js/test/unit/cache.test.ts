import { afterEach, describe, expect, it } from 'vitest';
import {
  LicenseExpiredError,
  LicenseRevokedError,
  LicensingClient,
  NetworkError,
  RateLimitedError,
  ServerError,
  SignatureError,
  ValidationCache,
  memoryStorage,
  webStorage,
  type CacheStorage,
} from '../../src/index.js';
import { offlineVector } from '../support/offline-vectors.js';
import { KEY, PK, VALID, scriptServer, type Step } from '../support/script-server.js';

const servers: { close: () => Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const HOUR = 3_600_000;
const DOWN: Step = { status: 503, body: { error: 'Service temporarily unavailable' } };

/** A service whose next answers the test sets, and a client with a clock the test moves. */
type ClientOptions = ConstructorParameters<typeof LicensingClient>[0];
async function setup(options: { gracePeriodMs?: number; storage?: CacheStorage; offline?: ClientOptions['offline']; signing?: ClientOptions['signing']; cache?: ValidationCache } = {}) {
  let next: Step = { status: 200, body: VALID };
  const server = await scriptServer(() => next);
  servers.push(server);
  const clock = { now: Date.parse('2026-03-01T12:00:00Z') };
  const client = new LicensingClient({
    baseUrl: server.url,
    publicKey: PK,
    retries: 0,
    now: () => clock.now,
    cache: options.cache ?? { storage: options.storage, gracePeriodMs: options.gracePeriodMs },
    offline: options.offline,
    signing: options.signing,
  });
  return { server, client, clock, answer: (step: Step) => (next = step) };
}

describe('validation cache and grace period', () => {
  it('stands in for the service with the last good answer when it cannot be reached, saying so', async () => {
    const { client, clock, answer } = await setup();
    const fresh = await client.validate(KEY);
    expect(fresh).toMatchObject({ valid: true, source: 'service' });
    expect([fresh.hasFeature('reports'), fresh.hasFeature('exports')]).toEqual([true, false]);

    answer(DOWN);
    clock.now += 5 * HOUR;
    const cached = await client.validate(KEY);
    expect(cached).toMatchObject({ valid: true, source: 'cache', license: VALID.license, product: VALID.product });
    expect(cached.hasFeature('reports')).toBe(true);
    if (!cached.valid) throw new Error('unreachable');
    expect(cached.checkedAt.toISOString()).toBe('2026-03-01T12:00:00.000Z');
    expect(cached.unavailable).toBeInstanceOf(ServerError);

    answer({ status: 429, body: { valid: false, error: 'Too many requests' }, headers: { 'retry-after': '60' } });
    expect(await client.validate(KEY)).toMatchObject({ valid: true, source: 'cache' });
    answer('reset');
    expect(await client.validate(KEY)).toMatchObject({ valid: true, source: 'cache' });
  });

  it('ends the grace after gracePeriodMs (default 72 hours): then the error is thrown', async () => {
    const { client, clock, answer } = await setup();
    await client.validate(KEY);
    answer(DOWN);
    clock.now += 71 * HOUR;
    expect(await client.validate(KEY)).toMatchObject({ source: 'cache' });
    clock.now += 2 * HOUR;
    await expect(client.validate(KEY)).rejects.toBeInstanceOf(ServerError);
  });

  it('never serves the cache after a definite "invalid": the answer deletes the entry', async () => {
    const { client, answer } = await setup();
    await client.validate(KEY);
    answer({ status: 400, body: { valid: false, error: 'License has been revoked' } });
    const revoked = await client.validate(KEY);
    expect(revoked).toMatchObject({ valid: false, source: 'service' });
    if (revoked.valid) throw new Error('unreachable');
    expect(revoked.error).toBeInstanceOf(LicenseRevokedError);
    answer(DOWN);
    await expect(client.validate(KEY)).rejects.toBeInstanceOf(ServerError);
  });

  it('refuses the grace when the clock was turned back', async () => {
    const { client, clock, answer } = await setup();
    await client.validate(KEY);
    answer('reset');
    clock.now += 10 * HOUR;
    expect(await client.validate(KEY)).toMatchObject({ source: 'cache' });
    clock.now -= 9 * HOUR; // still after the answer, but before the last time the cache was read
    await expect(client.validate(KEY)).rejects.toBeInstanceOf(NetworkError);
  });

  it('does not vouch for a license past its own expiry: that is a LicenseExpiredError from the cache', async () => {
    const { client, clock, answer } = await setup();
    answer({ status: 200, body: { ...VALID, license: { ...VALID.license, expiresAt: '2026-03-02T00:00:00.000Z' } } });
    await client.validate(KEY);
    answer(DOWN);
    clock.now += 6 * HOUR;
    expect(await client.validate(KEY)).toMatchObject({ valid: true, source: 'cache' });
    clock.now += 12 * HOUR;
    const result = await client.validate(KEY);
    expect(result).toMatchObject({ valid: false, source: 'cache' });
    if (result.valid) throw new Error('unreachable');
    expect(result.error).toBeInstanceOf(LicenseExpiredError);
  });

  it('forgets the key once this site deactivated it', async () => {
    const { client, answer } = await setup();
    await client.validate(KEY);
    answer({ status: 200, body: { success: true } });
    await client.deactivate(KEY, 'example.com');
    answer(DOWN);
    await expect(client.validate(KEY)).rejects.toBeInstanceOf(ServerError);
  });

  it('is off with cache: false', async () => {
    let next: Step = { status: 200, body: VALID };
    const server = await scriptServer(() => next);
    servers.push(server);
    const client = new LicensingClient({ baseUrl: server.url, publicKey: PK, retries: 0, cache: false });
    await client.validate(KEY);
    next = DOWN;
    await expect(client.validate(KEY)).rejects.toBeInstanceOf(ServerError);
    expect(client.cache).toBeUndefined();
  });

  it('keeps entries in a pluggable storage: localStorage through webStorage(), or any async get/set', async () => {
    const items = new Map<string, string>();
    const localStorageLike = {
      getItem: (k: string) => items.get(k) ?? null,
      setItem: (k: string, v: string) => void items.set(k, v),
      removeItem: (k: string) => void items.delete(k),
    };
    const first = await setup({ storage: webStorage(localStorageLike) });
    await first.client.validate(KEY);
    expect([...items.keys()]).toEqual([`licensing:${PK}:${KEY}`]);
    expect(JSON.parse(items.get(`licensing:${PK}:${KEY}`)!)).toMatchObject({ v: 1, license: VALID.license, product: VALID.product });

    // Another client (a restarted app) over the same storage, with the service down.
    const second = await setup({ storage: webStorage(localStorageLike) });
    second.answer(DOWN);
    expect(await second.client.validate(KEY)).toMatchObject({ valid: true, source: 'cache' });

    const file: Record<string, string> = {};
    const asyncStorage: CacheStorage = {
      get: async (k) => file[k],
      set: async (k, v) => void (file[k] = v),
    };
    const third = await setup({ storage: asyncStorage });
    await third.client.validate(KEY);
    third.answer(DOWN);
    expect(await third.client.validate(KEY)).toMatchObject({ source: 'cache' });
    third.answer({ status: 404, body: { valid: false, error: 'License key not found' } });
    await third.client.validate(KEY);
    expect(file[`licensing:${PK}:${KEY}`]).toBe(''); // no delete(): emptied
  });

  it('ignores unreadable entries and a storage that fails', async () => {
    const storage = memoryStorage();
    await storage.set(`licensing:${PK}:${KEY}`, '{not json');
    const { client, answer } = await setup({ storage });
    answer(DOWN);
    await expect(client.validate(KEY)).rejects.toBeInstanceOf(ServerError);

    const broken: CacheStorage = {
      get: () => {
        throw new Error('disk gone');
      },
      set: () => {
        throw new Error('disk gone');
      },
    };
    const other = await setup({ storage: broken });
    expect(await other.client.validate(KEY)).toMatchObject({ valid: true, source: 'service' });
    other.answer(DOWN);
    await expect(other.client.validate(KEY)).rejects.toBeInstanceOf(ServerError);
  });

  it('can be shared between clients as a ValidationCache instance', async () => {
    const cache = new ValidationCache({ gracePeriodMs: HOUR });
    expect(cache.gracePeriodMs).toBe(HOUR);
    const client = new LicensingClient({ baseUrl: 'https://licenses.example.com', publicKey: PK, cache });
    expect(client.cache).toBe(cache);
  });
});

describe('offline license file fallback', () => {
  // A file the service's formatter signed (docs/test-vectors/offline-license), checked at the vector's time.
  const vector = offlineVector('valid');
  const VECTOR_KEY = 'ACME-SEO-ABCD-EFGH-JKLM-NPQR';
  const SITE = { domain: 'https://www.shop.example.com/' };

  async function offlineSetup(load: () => string | null) {
    const cache = new ValidationCache();
    const context = await setup({ offline: { load }, signing: { publicKeys: vector.publicKeys }, cache });
    context.clock.now = Date.parse(vector.now);
    return { ...context, cache };
  }

  it('stands in when the service cannot be reached and nothing is cached, for its own key and site only', async () => {
    let stored: string | null = vector.licenseFile;
    const { client, answer } = await offlineSetup(() => stored);
    answer('reset');
    const result = await client.validate(VECTOR_KEY, SITE);
    expect(result).toMatchObject({ valid: true, source: 'offline', license: { key: VECTOR_KEY, seats: 3 }, product: { slug: 'acme-seo' } });
    // The vector's file carries `features: ["reports"]`.
    expect([result.hasFeature('reports'), result.hasFeature('exports')]).toEqual([true, false]);
    if (!result.valid) throw new Error('unreachable');
    expect(result.checkedAt.toISOString()).toBe('2026-03-01T12:00:00.000Z');
    expect(result.unavailable).toBeInstanceOf(NetworkError);

    // Another site, another key, a forged file, or no file: the original error.
    await expect(client.validate(VECTOR_KEY, { domain: 'other.com' })).rejects.toBeInstanceOf(NetworkError);
    await expect(client.validate(KEY, SITE)).rejects.toBeInstanceOf(NetworkError);
    stored = offlineVector('tampered-payload').licenseFile;
    await expect(client.validate(VECTOR_KEY, SITE)).rejects.toBeInstanceOf(NetworkError);
    stored = null;
    await expect(client.validate(VECTOR_KEY, SITE)).rejects.toBeInstanceOf(NetworkError);
  });

  it('is never used for an answer that should be signed and is not: a fake "revoked" is a SignatureError', async () => {
    const { client, answer } = await offlineSetup(() => vector.licenseFile);
    answer({ status: 400, body: { valid: false, error: 'License has been revoked' } });
    await expect(client.validate(VECTOR_KEY, SITE)).rejects.toBeInstanceOf(SignatureError);
  });

  it('refuses a file past its validUntil', async () => {
    const { client, clock, answer } = await offlineSetup(() => vector.licenseFile);
    answer(DOWN);
    clock.now = Date.parse('2026-03-31T12:00:00.000Z');
    await expect(client.validate(VECTOR_KEY, SITE)).rejects.toBeInstanceOf(ServerError);
    await expect(client.validateOffline(VECTOR_KEY, SITE)).rejects.toMatchObject({ reason: 'expired', message: 'The offline license file has expired' });
  });

  it('prefers the cache to the file, and a rate limit counts as unreachable', async () => {
    const { client, cache, clock, answer } = await offlineSetup(() => vector.licenseFile);
    await cache.store(PK, VECTOR_KEY, { license: { ...VALID.license, key: VECTOR_KEY }, product: VALID.product, checkedAt: clock.now });
    answer({ status: 429, body: { valid: false, error: 'Too many requests' } });
    expect(await client.validate(VECTOR_KEY, SITE)).toMatchObject({ source: 'cache' });
    await cache.forget(PK, VECTOR_KEY);
    const result = await client.validate(VECTOR_KEY, SITE);
    expect(result).toMatchObject({ source: 'offline' });
    if (!result.valid) throw new Error('unreachable');
    expect(result.unavailable).toBeInstanceOf(RateLimitedError);
  });
});
