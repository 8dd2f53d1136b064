import { createServer } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../../../shared/messaging/events/event-types.js';
import { newTenant } from '../../support/client.js';
import { startReceiver, type Receiver } from '../../support/webhook-receiver.js';

const hook = (url: string, extra: Record<string, unknown> = {}) => ({ name: 'Orders', url, events: ['license.created'], ...extra });

/** A local port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('webhooks CRUD', () => {
  it('creates a webhook with a generated secret and lists it with every event kind', async () => {
    const tenant = await newTenant();
    const res = await tenant.post('/api/webhooks', hook('https://example.com/hooks', { events: ['license.created', 'customer.created', 'license.created'] }));
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^whk_[a-z2-7]{24}$/),
      name: 'Orders',
      url: 'https://example.com/hooks',
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      events: ['license.created', 'customer.created'],
      enabled: true,
      lastTriggeredAt: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const list = await tenant.get('/api/webhooks');
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ items: [res.body], events: [...EVENT_TYPES] });
    expect((await tenant.get(`/api/webhooks/${res.body.id}`)).body).toEqual(res.body);
  });

  it('keeps a supplied secret and the enabled flag', async () => {
    const tenant = await newTenant();
    const secret = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;
    const res = await tenant.post('/api/webhooks', hook('http://127.0.0.1:9/x', { secret, enabled: false }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ secret, enabled: false });
  });

  it('refuses bad input with 400 and writes nothing', async () => {
    const tenant = await newTenant();
    const cases: [unknown, RegExp][] = [
      [{ url: 'https://e.com', events: ['license.created'] }, /name is required/],
      [{ name: 'x', events: ['license.created'] }, /url is required/],
      [{ name: 'x', url: 'https://e.com' }, /events is required/],
      [hook('https://e.com', { events: [] }), /events/],
      [hook('https://e.com', { events: ['license.exploded'] }), /events/],
      [hook('https://e.com', { events: 'license.created' }), /events/],
      [hook('ftp://e.com'), /url/],
      [hook('not a url'), /url/],
      [hook('https://e.com', { secret: 'hunter2' }), /secret/],
      [hook('https://e.com', { secret: `whsec_${Buffer.alloc(8).toString('base64')}` }), /secret/],
      [hook('https://e.com', { enabled: 'yes' }), /enabled/],
      [hook('https://e.com', { name: '' }), /name/],
      [hook('https://e.com', { owner: 'me' }), /Unknown field: owner/],
    ];
    for (const [body, message] of cases) {
      const res = await tenant.post('/api/webhooks', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatch(message);
    }
    expect((await tenant.get('/api/webhooks')).body.items).toEqual([]);
  });

  it('updates partially, regenerates the secret, and deletes', async () => {
    const tenant = await newTenant();
    const { body: created } = await tenant.post('/api/webhooks', hook('https://example.com/a'));
    const updated = await tenant.put(`/api/webhooks/${created.id}`, { enabled: false, events: ['customer.updated'] });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: 'Orders', url: 'https://example.com/a', enabled: false, events: ['customer.updated'], secret: created.secret });
    expect((await tenant.put(`/api/webhooks/${created.id}`, { events: [] })).status).toBe(400);
    expect((await tenant.put(`/api/webhooks/${created.id}`, { secret: created.secret })).status).toBe(400);

    const regenerated = await tenant.post(`/api/webhooks/${created.id}/regenerate-secret`);
    expect(regenerated.status).toBe(200);
    expect(regenerated.body.secret).toMatch(/^whsec_/);
    expect(regenerated.body.secret).not.toBe(created.secret);
    expect((await tenant.get(`/api/webhooks/${created.id}`)).body.secret).toBe(regenerated.body.secret);

    expect((await tenant.delete(`/api/webhooks/${created.id}`)).status).toBe(204);
    expect((await tenant.get(`/api/webhooks/${created.id}`)).status).toBe(404);
    expect((await tenant.delete(`/api/webhooks/${created.id}`)).status).toBe(404);
  });

  it("answers 404 for another tenant's webhook and changes nothing", async () => {
    const owner = await newTenant();
    const other = await newTenant();
    const { body: created } = await owner.post('/api/webhooks', hook('https://example.com/a'));
    const paths = ['', '/deliveries'];
    for (const path of paths) expect((await other.get(`/api/webhooks/${created.id}${path}`)).status).toBe(404);
    expect((await other.put(`/api/webhooks/${created.id}`, { name: 'Mine' })).status).toBe(404);
    expect((await other.post(`/api/webhooks/${created.id}/regenerate-secret`)).status).toBe(404);
    expect((await other.post(`/api/webhooks/${created.id}/test`)).status).toBe(404);
    expect((await other.delete(`/api/webhooks/${created.id}`)).status).toBe(404);
    expect((await other.get('/api/webhooks')).body.items).toEqual([]);
    expect((await owner.get(`/api/webhooks/${created.id}`)).body).toEqual(created);
  });

  it('requires authentication', async () => {
    const tenant = await newTenant();
    tenant.cookie = undefined;
    expect((await tenant.get('/api/webhooks')).status).toBe(401);
  });
});

describe('webhook test endpoint', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver((n) => (n === 2 ? 500 : 200));
  });
  afterAll(() => receiver.close());

  it('sends a signed webhook.test event at once and reports 200, then 500', async () => {
    const tenant = await newTenant();
    const { body: webhook } = await tenant.post('/api/webhooks', hook(receiver.url));
    const ok = await tenant.post(`/api/webhooks/${webhook.id}/test`);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ success: true, status: 200, statusText: 'OK' });
    const [request] = receiver.requests;
    const payload = new Webhook(webhook.secret).verify(request!.body, request!.headers as Record<string, string>) as any;
    expect(payload).toMatchObject({ id: expect.stringMatching(/^evt_/), type: 'webhook.test', createdAt: expect.any(String), data: { webhookId: webhook.id } });
    expect(request!.headers['webhook-id']).toBe(payload.id);

    const failing = await tenant.post(`/api/webhooks/${webhook.id}/test`);
    expect(failing.body).toEqual({ success: false, status: 500, statusText: 'Internal Server Error' });
    // A test is not a delivery.
    expect((await tenant.get(`/api/webhooks/${webhook.id}/deliveries`)).body.items).toEqual([]);
  });

  it('reports an unreachable URL as status 0 with the reason', async () => {
    const tenant = await newTenant();
    const { body: webhook } = await tenant.post('/api/webhooks', hook(`http://127.0.0.1:${await closedPort()}/hook`));
    const res = await tenant.post(`/api/webhooks/${webhook.id}/test`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: false, status: 0, statusText: expect.stringMatching(/ECONNREFUSED/) });
  });
});
