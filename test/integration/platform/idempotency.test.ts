import { createHash, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newTenant, type Response } from '../../support/client.js';
import { licensedProduct, newLicense, newProduct, plugin } from '../../support/licensing-fixtures.js';
import { localData } from '../../support/table.js';

const KEY = 'Idempotency-Key';
const REPLAYED = 'idempotent-replayed';

const edge = (operation: string, body: unknown, key?: string) =>
  plugin().post(`/v1/licenses/${operation}`, body, { origin: null, headers: key ? { [KEY]: key } : {} });
const publicApi = (operation: string, body: unknown, key?: string) =>
  plugin().post(`/public/v1/licenses/${operation}`, body, { origin: null, headers: key ? { [KEY]: key } : {} });
const answer = (res: Response) => [res.status, res.body];
const replayed = (res: Response) => res.headers.get(REPLAYED) === 'true';

/** The idempotency record of a key within a scope, as the wrapper names it (shared/platform/http/idempotency.ts). */
async function recordOf(scope: string, key: string) {
  const idempotencyKeyHash = createHash('sha256').update(scope).update('\n').update(key).digest('base64url');
  return (await localData().entities.idempotencyRecord.get({ idempotencyKeyHash }).go({ consistent: true })).data;
}

describe('Idempotency-Key on the license operations', () => {
  it('answers the same activate sent 10 times at once with one key with one activation and 10 identical answers', async () => {
    const { tenant, license } = await licensedProduct({ seats: 3 });
    const key = randomUUID();
    const body = { license_key: license.licenseKey, domain: 'shop.example.com' };
    const results = await Promise.all(Array.from({ length: 10 }, () => edge('activate', body, key)));
    const first = results[0]!;
    expect(answer(first)).toEqual([200, { success: true, activation_id: expect.stringMatching(/^act_/), environment: 'production', license: { features: [] }, ...body }]);
    for (const res of results) expect(answer(res)).toEqual(answer(first));
    // One request acted; the nine others got its recorded answer.
    expect(results.filter(replayed)).toHaveLength(9);
    expect((await edge('validate', { license_key: license.licenseKey })).body.license.activatedCount).toBe(1);
    expect((await tenant.get(`/api/licenses/${license.id}`)).body.activations).toHaveLength(1);
    expect(await recordOf(`license#${license.licenseKey}`, key)).toMatchObject({ state: 'completed', ttl: expect.any(Number) });
  });

  it('replays the first answer even after the state changed, instead of acting again', async () => {
    const { license } = await licensedProduct({ seats: 1 });
    const key = randomUUID();
    const body = { license_key: license.licenseKey, domain: 'shop.example.com' };
    const first = await edge('activate', body, key);
    expect(first.status).toBe(200);
    expect(replayed(first)).toBe(false);
    expect((await edge('deactivate', body)).status).toBe(200);
    const retry = await edge('activate', body, key);
    expect([...answer(retry), replayed(retry)]).toEqual([...answer(first), true]);
    // The retry made no activation: the seat is still free.
    expect((await edge('validate', { license_key: license.licenseKey })).body.license.activatedCount).toBe(0);
    // Without the key, activating again acts (a new activation).
    const fresh = await edge('activate', body);
    expect([fresh.status, replayed(fresh)]).toEqual([200, false]);
    expect(fresh.body.activation_id).not.toBe(first.body.activation_id);
  });

  it('refuses the same key with another body (422) and acts on nothing', async () => {
    const { tenant, license } = await licensedProduct({ seats: 3 });
    const key = randomUUID();
    expect((await edge('activate', { license_key: license.licenseKey, domain: 'one.example.com' }, key)).status).toBe(200);
    const other = await edge('activate', { license_key: license.licenseKey, domain: 'two.example.com' }, key);
    expect(answer(other)).toEqual([422, { error: 'Idempotency-Key was used with a different request' }]);
    // Another operation (path) under the same key is another request too.
    const deactivate = await edge('deactivate', { license_key: license.licenseKey, domain: 'one.example.com' }, key);
    expect(answer(deactivate)).toEqual([422, { error: 'Idempotency-Key was used with a different request' }]);
    const { body: detail } = await tenant.get(`/api/licenses/${license.id}`);
    expect(detail.activations.map((a: { domain: string; status: string }) => [a.domain, a.status])).toEqual([['one.example.com', 'active']]);
  });

  it('keeps nothing of a refused request (a retry runs again), and a deactivate retried gets its first answer', async () => {
    const { license } = await licensedProduct({ seats: 1 });
    const taken = await edge('activate', { license_key: license.licenseKey, domain: 'one.example.com' });
    expect(taken.status).toBe(200);
    const key = randomUUID();
    const full = await edge('activate', { license_key: license.licenseKey, domain: 'two.example.com' }, key);
    expect(answer(full)).toEqual([400, { error: 'License seat limit reached', license_key: license.licenseKey, domain: 'two.example.com' }]);
    expect(await recordOf(`license#${license.licenseKey}`, key)).toBeNull();
    const off = randomUUID();
    const freed = await edge('deactivate', { license_key: license.licenseKey, domain: 'one.example.com' }, off);
    expect(answer(freed)).toEqual([200, { success: true, license_key: license.licenseKey, domain: 'one.example.com' }]);
    // The deactivate again: its first answer, although the domain is no longer active (run again, it would be 400).
    const freedAgain = await edge('deactivate', { license_key: license.licenseKey, domain: 'one.example.com' }, off);
    expect([...answer(freedAgain), replayed(freedAgain)]).toEqual([...answer(freed), true]);
    // The refused activate again: it runs, and now that the seat is free it activates; from then on it is replayed.
    const again = await edge('activate', { license_key: license.licenseKey, domain: 'two.example.com' }, key);
    expect([again.status, again.body.environment, replayed(again)]).toEqual([200, 'production', false]);
    const thrice = await edge('activate', { license_key: license.licenseKey, domain: 'two.example.com' }, key);
    expect([...answer(thrice), replayed(thrice)]).toEqual([...answer(again), true]);
    expect((await edge('validate', { license_key: license.licenseKey })).body.license.activatedCount).toBe(1);
  });

  it("keeps one license key's keys apart from another's, on both surfaces", async () => {
    const { tenant, product, license } = await licensedProduct({ seats: 2 });
    const other = await newLicense(tenant, product.id, { seats: 2 });
    const key = randomUUID();
    const mine = await edge('activate', { license_key: license.licenseKey, domain: 'shop.example.com' }, key);
    const theirs = await edge('activate', { license_key: other.licenseKey, domain: 'shop.example.com' }, key);
    expect([mine.status, theirs.status, replayed(theirs)]).toEqual([200, 200, false]);
    expect(theirs.body.activation_id).not.toBe(mine.body.activation_id);
    const viaPublic = await publicApi('activate', { public_key: product.public_key, license_key: other.licenseKey, domain: 'b.example.com' }, randomUUID());
    expect([viaPublic.status, viaPublic.body.environment, replayed(viaPublic)]).toEqual([200, 'production', false]);
    const publicRetry = await publicApi('activate', { public_key: product.public_key, license_key: other.licenseKey, domain: 'b.example.com' }, key);
    // The key was used by this license key on the edge for another request.
    expect(answer(publicRetry)).toEqual([422, { error: 'Idempotency-Key was used with a different request' }]);
  });

  it('refuses a key of another shape, and behaves as before without one', async () => {
    const { license } = await licensedProduct({ seats: 2 });
    const body = { license_key: license.licenseKey, domain: 'shop.example.com' };
    for (const key of ['x'.repeat(256), 'caf\u00e9']) {
      const res = await plugin().request('POST', '/v1/licenses/activate', { body, origin: null, headers: { [KEY]: key } });
      expect(answer(res)).toEqual([400, { error: 'Idempotency-Key must be 1 to 255 printable ASCII characters' }]);
    }
    const plain = await edge('activate', body);
    expect([plain.status, replayed(plain)]).toEqual([200, false]);
    expect((await edge('validate', { license_key: license.licenseKey })).body.license.activatedCount).toBe(1);
    // A body without a license key has no caller: answered as without the header.
    expect(answer(await edge('activate', { domain: 'shop.example.com' }, randomUUID()))).toEqual([400, { error: 'license_key is required', details: expect.any(Array) }]);
  });
});

describe('Idempotency-Key on the management API', () => {
  it('makes one license of a create retried with the key, and of five sent at once', async () => {
    const tenant = await newTenant();
    const product = await newProduct(tenant);
    const key = randomUUID();
    const body = { productId: product.id, customerEmail: 'retry@example.com', seats: 2 };
    const first = await tenant.post('/api/licenses', body, { headers: { [KEY]: key } });
    expect(first.status).toBe(201);
    const retry = await tenant.post('/api/licenses', body, { headers: { [KEY]: key } });
    expect([...answer(retry), replayed(retry)]).toEqual([201, first.body, true]);

    const together = randomUUID();
    const results = await Promise.all(Array.from({ length: 5 }, () => tenant.post('/api/licenses', body, { headers: { [KEY]: together } })));
    expect(new Set(results.map((r) => r.text)).size).toBe(1);
    expect(results.map((r) => r.status)).toEqual(Array(5).fill(201));
    const listed = await tenant.get(`/api/licenses?product_id=${product.id}`);
    expect(listed.body.pagination.total).toBe(2);

    // Without a key, each create acts.
    await tenant.post('/api/licenses', body);
    await tenant.post('/api/licenses', body);
    expect((await tenant.get(`/api/licenses?product_id=${product.id}`)).body.pagination.total).toBe(4);
  });

  it("keeps one account's keys apart from another's, and refuses a key reused for another request", async () => {
    const [first, second] = [await newTenant(), await newTenant()];
    const key = randomUUID();
    const a = await first.post('/api/customers', { email: 'same@example.com' }, { headers: { [KEY]: key } });
    const b = await second.post('/api/customers', { email: 'same@example.com' }, { headers: { [KEY]: key } });
    expect([a.status, b.status, replayed(b)]).toEqual([201, 201, false]);
    expect(b.body.id).not.toBe(a.body.id);
    const reused = await first.post('/api/customers', { email: 'other@example.com' }, { headers: { [KEY]: key } });
    expect(answer(reused)).toEqual([422, { error: 'Idempotency-Key was used with a different request' }]);
    expect((await first.get('/api/customers')).body.pagination.total).toBe(1);
    // The same key on another route is another request.
    const elsewhere = await first.post('/api/products', { name: 'Other', productType: 'plugin' }, { headers: { [KEY]: key } });
    expect(answer(elsewhere)).toEqual([422, { error: 'Idempotency-Key was used with a different request' }]);
  });

  it('does not keep a failure (a 409 here) or an answer it must not keep: a retry acts', async () => {
    const tenant = await newTenant();
    const slug = `taken-${Date.now()}`;
    expect((await tenant.post('/api/products', { name: 'A', productType: 'plugin', slug })).status).toBe(201);
    const key = randomUUID();
    const taken = await tenant.post('/api/products', { name: 'B', productType: 'plugin', slug }, { headers: { [KEY]: key } });
    expect(answer(taken)).toEqual([409, { error: 'Slug is already taken' }]);
    expect(await recordOf(`user#${tenant.userId}`, key)).toBeNull();
    // An API key's answer holds the key itself: never kept, so the header is ignored there.
    const apiKey = randomUUID();
    const created = [await tenant.post('/api/api-keys', { name: 'k' }, { headers: { [KEY]: apiKey } }), await tenant.post('/api/api-keys', { name: 'k' }, { headers: { [KEY]: apiKey } })];
    expect(created.map((r) => r.status)).toEqual([201, 201]);
    expect(created[1]!.body.key).not.toBe(created[0]!.body.key);
    expect(await recordOf(`user#${tenant.userId}`, apiKey)).toBeNull();
  });
});
