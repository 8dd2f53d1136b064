import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createManagementDeps, createManagementHandler } from '../../../functions/management/app.js';
import { createPublicDeps, createPublicHandler } from '../../../functions/public/app.js';
import { createGateway, type LambdaHandler } from '../../../infra/local/gateway.js';
import { ROUTES, type Surface } from '../../../infra/routes.js';
import { dayOf } from '../../../shared/insights/analytics/days.js';
import { ALL_CONFIG_SECTIONS, loadConfig } from '../../../shared/platform/config.js';
import { Client, newTenant } from '../../support/client.js';
import { licensedProduct, newLicense, newProduct, plugin, type Product, type Tenant } from '../../support/licensing-fixtures.js';

const DAY_MS = 86_400_000;

describe('feedback', () => {
  it('stores what a plugin sends, with a license of the product, and lists it newest first to the owner, filtered by type', async () => {
    const { tenant, product, license } = await licensedProduct();
    const other = await newProduct(tenant);
    const otherLicense = await newLicense(tenant, other.id);
    const sent = [
      { type: 'bug', message: 'It crashes on save', email: 'Site@Example.com', license_key: license.licenseKey, domain: 'https://shop.example.com/wp', metadata: { wp: '6.7', php: { version: '8.3' } } },
      { type: 'feature', message: 'Dark mode please', license_key: otherLicense.licenseKey },
      { type: 'general', message: 'Thanks!' },
    ];
    const ids: string[] = [];
    for (const body of sent) {
      const res = await plugin().post('/public/v1/feedback', { public_key: product.public_key, ...body });
      expect(res.status, res.text).toBe(201);
      expect(res.body).toEqual({ id: expect.stringMatching(/^fbk_[a-z2-7]{24}$/) });
      ids.push(res.body.id);
    }

    const list = await tenant.get(`/api/products/${product.id}/feedback`);
    expect(list.status, list.text).toBe(200);
    expect(list.body.pagination).toEqual({ page: 1, perPage: 20, total: 3, totalPages: 1 });
    expect(list.body.items.map((f: { id: string }) => f.id)).toEqual([...ids].reverse());
    expect(list.body.items[2]).toEqual({
      id: ids[0], productId: product.id, type: 'bug', message: 'It crashes on save', email: 'site@example.com',
      licenseId: license.id, licenseKey: license.licenseKey, domain: 'shop.example.com', metadata: { wp: '6.7', php: { version: '8.3' } },
      createdAt: expect.any(String),
    });
    // Another product's key is dropped, not refused: nothing tells the caller whose key it is.
    expect(list.body.items[1]).toMatchObject({ type: 'feature', licenseId: null, licenseKey: null, email: null, metadata: null });

    const bugs = await tenant.get(`/api/products/${product.id}/feedback?type=bug`);
    expect(bugs.body.items.map((f: { id: string }) => f.id)).toEqual([ids[0]]);
    expect(bugs.body.pagination.total).toBe(1);
    const page2 = await tenant.get(`/api/products/${product.id}/feedback?per_page=2&page=2`);
    expect(page2.body.items.map((f: { id: string }) => f.id)).toEqual([ids[0]]);
    expect(page2.body.pagination).toEqual({ page: 2, perPage: 2, total: 3, totalPages: 2 });

    const stranger = await newTenant();
    expect((await stranger.get(`/api/products/${product.id}/feedback`)).status).toBe(404);
    expect((await new Client().get(`/api/products/${product.id}/feedback`, { origin: null })).status).toBe(401);
  });

  it('refuses bad input with 400 and the reason, an unknown public key with 404, and writes nothing', async () => {
    const { tenant, product } = await licensedProduct();
    const good = { public_key: product.public_key, type: 'bug', message: 'x' };
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 8; i++) deep = { deep };
    const cases: [Record<string, unknown>, number, string][] = [
      [{ ...good, type: 'praise' }, 400, 'type must be one of bug, feature, general'],
      [{ ...good, type: undefined }, 400, 'type is required'],
      [{ ...good, message: '' }, 400, 'message is required'],
      [{ ...good, message: '   ' }, 400, 'message is required'],
      [{ ...good, message: 'm'.repeat(5001) }, 400, 'message must be at most 5000 characters'],
      [{ ...good, message: 42 }, 400, 'message must be a string'],
      [{ ...good, email: 'not-an-address' }, 400, 'email must be a valid e-mail address'],
      [{ ...good, metadata: ['a'] }, 400, 'metadata must be an object'],
      [{ ...good, metadata: 'text' }, 400, 'metadata must be an object'],
      [{ ...good, metadata: deep }, 400, 'metadata: must nest at most 8 levels'],
      [{ ...good, metadata: { big: 'x'.repeat(8200) } }, 400, 'metadata: must be at most 8192 bytes as JSON'],
      [{ ...good, public_key: undefined }, 400, 'public_key is required'],
      [{ ...good, public_key: 'pk_nope' }, 404, 'Invalid public_key'],
      [{ ...good, public_key: `pk_${'a'.repeat(32)}` }, 404, 'Invalid public_key'],
    ];
    for (const [body, status, error] of cases) {
      const res = await plugin().post('/public/v1/feedback', body);
      expect([JSON.stringify(body).slice(0, 80), res.status, res.body?.error]).toEqual([JSON.stringify(body).slice(0, 80), status, error]);
    }
    const tooLarge = await plugin().post('/public/v1/feedback', { ...good, message: 'x'.repeat(40_000) });
    expect(tooLarge.status).toBe(413);
    const notJson = await plugin().request('POST', '/public/v1/feedback', { rawBody: 'type=bug', headers: { 'content-type': 'text/plain' } });
    expect(notJson.status).toBe(415);
    expect((await tenant.get(`/api/products/${product.id}/feedback`)).body.pagination.total).toBe(0);
  });
});

/** A product's events once the usage event writer has stored `count` of them (it writes within seconds of the 202). */
async function eventsWritten(tenant: Tenant, productId: string, count: number) {
  const read = () => tenant.get(`/api/products/${productId}/events`);
  await expect.poll(async () => (await read()).body.items?.length, { timeout: 15_000, interval: 100 }).toBe(count);
  return read();
}

describe('usage events', () => {
  it('accepts an event with 202 and lists events newest first, filtered by name, with their properties', async () => {
    const { tenant, product, license } = await licensedProduct();
    const otherLicense = await newLicense(tenant, (await newProduct(tenant)).id);
    const sent = [
      { event: 'settings_saved', license_key: license.licenseKey },
      { event: 'export', license_key: otherLicense.licenseKey },
      { event: 'settings_saved', license_key: license.licenseKey },
    ];
    for (const [i, body] of sent.entries()) {
      const res = await plugin().post('/public/v1/events', { public_key: product.public_key, ...body, properties: { n: i }, domain: 'a.example' });
      expect(res.status, res.text).toBe(202);
      expect(res.body).toEqual({ accepted: true });
    }
    const all = await eventsWritten(tenant, product.id, 3);
    expect(all.status, all.text).toBe(200);
    expect(all.body.items.map((e: { properties: { n: number } }) => e.properties.n)).toEqual([2, 1, 0]);
    expect(all.body.items[0]).toEqual({
      id: expect.stringMatching(/^uev_/), productId: product.id, event: 'settings_saved', properties: { n: 2 },
      licenseId: license.id, licenseKey: license.licenseKey, domain: 'a.example', createdAt: expect.any(String),
    });
    // The writer checks the key against the product: another product's is dropped, not refused.
    expect(all.body.items[1]).toMatchObject({ event: 'export', licenseId: null, licenseKey: null });
    const saved = await tenant.get(`/api/products/${product.id}/events?event=settings_saved&per_page=1&page=2`);
    expect(saved.body.items.map((e: { properties: { n: number } }) => e.properties.n)).toEqual([0]);
    expect(saved.body.pagination).toEqual({ page: 2, perPage: 1, total: 2, totalPages: 2 });
  });

  it('refuses events that are not events, and never coerces types', async () => {
    const { tenant, product } = await licensedProduct();
    const good = { public_key: product.public_key, event: 'opened' };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...good, event: '' }, 'event is required'],
      [{ ...good, event: 'e'.repeat(101) }, 'event must be at most 100 characters'],
      [{ ...good, event: ['opened'] }, 'event must be a string'],
      [{ ...good, properties: [1, 2] }, 'properties must be an object'],
      [{ ...good, properties: 7 }, 'properties must be an object'],
      [{ ...good, properties: { blob: 'x'.repeat(9000) } }, 'properties: must be at most 8192 bytes as JSON'],
    ];
    for (const [body, error] of cases) {
      const res = await plugin().post('/public/v1/events', body);
      expect([res.status, res.body?.error]).toEqual([400, error]);
    }
    const unknown = await plugin().post('/public/v1/events', { ...good, public_key: `pk_${'a'.repeat(32)}` });
    expect([unknown.status, unknown.body?.error]).toEqual([404, 'Invalid public_key']);
    // A good event after the refused ones: once it is written, nothing else was.
    expect((await plugin().post('/public/v1/events', good)).status).toBe(202);
    expect((await eventsWritten(tenant, product.id, 1)).body.pagination.total).toBe(1);
  });
});

describe('deactivation reasons', () => {
  it('stores a reason with 201 and lists reasons newest first', async () => {
    const { tenant, product } = await licensedProduct();
    for (const reason of ['too_expensive', 'found_better']) {
      const res = await plugin().post('/public/v1/deactivation-reasons', { public_key: product.public_key, reason, details: `because ${reason}`, domain: 'b.example' });
      expect(res.status, res.text).toBe(201);
      expect(res.body.id).toMatch(/^drs_/);
    }
    const list = await tenant.get(`/api/products/${product.id}/deactivation-reasons`);
    expect(list.body.items.map((r: { reason: string }) => r.reason)).toEqual(['found_better', 'too_expensive']);
    expect(list.body.items[0]).toMatchObject({ details: 'because found_better', domain: 'b.example', licenseId: null });
    expect((await plugin().post('/public/v1/deactivation-reasons', { public_key: product.public_key, reason: '' })).body.error).toBe('reason is required');
    expect((await plugin().post('/public/v1/deactivation-reasons', { public_key: product.public_key, reason: 'r'.repeat(101) })).status).toBe(400);
  });
});

describe('installs by version', () => {
  it('counts a site once a day under the version its update check or validate reports, and only active sites', async () => {
    const { tenant, product, license } = await licensedProduct();
    expect((await plugin().post('/v1/licenses/activate', { license_key: license.licenseKey, domain: 'three.example' })).status).toBe(200);
    const check = (domain: string) =>
      plugin().get(`/v1/wp/update-check?slug=${product.slug}&license_key=${encodeURIComponent(license.licenseKey)}&version=3.1.0&domain=${domain}`);
    expect((await check('https://three.example/')).status).toBe(200);
    // Not an active site of the license, and not a domain at all: the answer is the same, nothing is counted.
    expect((await check('elsewhere.example')).status).toBe(200);
    expect((await check('%25%25')).status).toBe(200);
    const today = dayOf(new Date());
    // Counted through the usage queue, within seconds.
    await expect
      .poll(async () => (await tenant.get(`/api/products/${product.id}/analytics?from=${today}&to=${today}`)).body.days, { timeout: 15_000, interval: 100 })
      .toEqual([expect.objectContaining({ date: today, activeInstalls: 1, versions: { '3.1.0': 1 } })]);
  });
});

/**
 * The public and management functions behind a gateway of the test's own, on the shared table, with a clock the
 * test moves (two days) and the rate limits at their real size.
 */
describe('analytics over days', () => {
  let server: Server;
  let client: Client;
  // Yesterday's start, so that a test's seconds stay within one day.
  let now = new Date(Date.parse(dayOf(new Date(Date.now() - DAY_MS))));
  const clock = { now: () => now };

  beforeAll(async () => {
    const config = loadConfig({
      RUNTIME: 'local', TABLE_NAME: inject('tableName'), DYNAMODB_ENDPOINT: inject('dynamoEndpoint'), RATE_LIMIT_SCALE: '1',
      LOCAL_PROVIDER_KEY: Buffer.alloc(32, 1).toString('base64'),
      // The stack's usage queue: its writer stores what this handler accepts, on the day of this test's clock.
      USAGE_QUEUE_URL: inject('usageQueueUrl'), SQS_ENDPOINT: inject('sqsEndpoint'),
    }, ALL_CONFIG_SECTIONS);
    const handlers = {
      public: createPublicHandler({ ...createPublicDeps(config), clock }),
      management: createManagementHandler({ ...createManagementDeps(config), clock }),
    } as unknown as Record<Surface, LambdaHandler>;
    server = createGateway({ routes: ROUTES, handlers, localRoutes: {} });
    await new Promise<void>((resolve) => server.listen(0, resolve));
    client = new Client(`http://localhost:${(server.address() as AddressInfo).port}`);
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /** Each call `tick` after the last (a second: records made in one test have an order). */
  const send = (product: Product, path: string, body: Record<string, unknown>, tick = 1000) => {
    now = new Date(now.getTime() + tick);
    return client.post(`/public/v1/${path}`, { public_key: product.public_key, ...body }, { origin: null });
  };

  it('totals the events, feedback and reasons of each day, and counts each active install once a day with its version', async () => {
    const { tenant, product, license } = await licensedProduct({ seats: 3 });
    for (const domain of ['one.example', 'two.example']) {
      expect((await plugin().post('/v1/licenses/activate', { license_key: license.licenseKey, domain })).status).toBe(200);
    }
    const dayOne = dayOf(now);
    for (const event of ['opened', 'opened', 'saved']) expect((await send(product, 'events', { event })).status).toBe(202);
    expect((await send(product, 'feedback', { type: 'bug', message: 'x' })).status).toBe(201);
    const validate = (domain: string, version: string) => send(product, 'licenses/validate', { license_key: license.licenseKey, domain, version });
    expect((await validate('one.example', '1.0.0')).status).toBe(200);
    expect((await validate('two.example', '2.0.0')).status).toBe(200);

    now = new Date(now.getTime() + DAY_MS);
    const dayTwo = dayOf(now);
    for (const event of ['opened', 'closed']) expect((await send(product, 'events', { event })).status).toBe(202);
    expect((await send(product, 'deactivation-reasons', { reason: 'too_expensive' })).status).toBe(201);
    expect((await validate('one.example', '2.0.0')).status).toBe(200);
    // The same install again that day (past the container's one-minute spacing) is not counted twice.
    now = new Date(now.getTime() + 2 * 60_000);
    expect((await validate('one.example', '2.0.0')).status).toBe(200);

    const owner = { headers: { cookie: `session=${tenant.cookie}` }, origin: null };
    const analytics = async () => (await client.get(`/api/products/${product.id}/analytics?from=${dayOne}&to=${dayTwo}`, owner)).body;
    await expect.poll(analytics, { timeout: 15_000, interval: 100 }).toEqual({
      from: dayOne,
      to: dayTwo,
      days: [
        { date: dayOne, activeInstalls: 2, versions: { '1.0.0': 1, '2.0.0': 1 }, events: { opened: 2, saved: 1 }, feedback: { bug: 1 }, deactivationReasons: {} },
        { date: dayTwo, activeInstalls: 1, versions: { '2.0.0': 1 }, events: { opened: 1, closed: 1 }, feedback: {}, deactivationReasons: { too_expensive: 1 } },
      ],
      totals: { events: { opened: 3, saved: 1, closed: 1 }, feedback: { bug: 1 }, deactivationReasons: { too_expensive: 1 } },
    });
    // The counts are bumped before the events are stored: wait for the events too.
    const events = async () => (await client.get(`/api/products/${product.id}/events?from=${dayOne}&to=${dayOne}`, owner)).body.items.map((e: { event: string }) => e.event);
    await expect.poll(events, { timeout: 15_000, interval: 100 }).toEqual(['saved', 'opened', 'opened']);
  });

  it('refuses a bad range, and another tenant\'s product', async () => {
    const { tenant, product } = await licensedProduct();
    const get = (who: typeof tenant, query: string) => who.get(`/api/products/${product.id}/analytics${query}`);
    expect((await get(tenant, '?from=2026-02-30')).body.error).toBe('from: must be a date (YYYY-MM-DD)');
    expect((await get(tenant, '?from=2026-03-02&to=2026-03-01')).body.error).toBe('from must not be after to');
    expect((await get(tenant, '?from=2020-01-01&to=2026-01-01')).body.error).toBe('The range may span at most 366 days');
    expect((await get(tenant, '?unknown=1')).status).toBe(400);
    const bare = await get(tenant, '');
    expect(bare.status).toBe(200);
    expect(bare.body.days).toHaveLength(30);
    expect((await get(await newTenant(), '')).status).toBe(404);
  });

  it('refuses a caller past its bucket with 429 and Retry-After, before anything is written', async () => {
    const { tenant, product } = await licensedProduct();
    const results = [];
    // The clock stands still: no token comes back meanwhile.
    for (let i = 0; i < 60; i++) results.push((await send(product, 'events', { event: 'loop' }, 0)).status);
    expect(results.every((status) => status === 202)).toBe(true);
    const refused = await send(product, 'events', { event: 'loop' }, 0);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: 'Too many requests' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const listed = async () => (await client.get(`/api/products/${product.id}/events?event=loop&per_page=100`, { headers: { cookie: `session=${tenant.cookie}` }, origin: null })).body;
    await expect.poll(async () => (await listed()).items.length, { timeout: 15_000, interval: 100 }).toBe(60);
    expect((await listed()).pagination.total).toBe(60);
  });
});
