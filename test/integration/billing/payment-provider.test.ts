import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { Client, newTenant } from '../../support/client.js';
import { fakeStripeClient, stripeTestKey } from '../../support/fake-stripe.js';
import { localData } from '../../support/table.js';

const fake = fakeStripeClient(inject('stripeUrl'));
const webhookSecret = 'whsec_dGVzdHNlY3JldHRlc3RzZWNyZXQ=';
const connect = (tenant: Client, secretKey: string, extra: Record<string, unknown> = {}) =>
  tenant.put('/api/payment-provider', { provider: 'stripe', secretKey, webhookSecret, ...extra });

describe('payment provider', () => {
  it('is not connected at first, and names the webhook URL all the same', async () => {
    const tenant = await newTenant();
    const res = await tenant.get('/api/payment-provider');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ provider: null, connected: false, webhookUrl: `${inject('baseUrl')}/v1/webhooks/stripe/${tenant.userId}`, automaticTax: false, taxIdCollection: false });
  });

  it('connects with a key Stripe accepts, stores the secrets sealed, never shows them, and disconnects', async () => {
    const tenant = await newTenant();
    const secretKey = stripeTestKey();
    const res = await connect(tenant, secretKey);
    expect(res.status, res.text).toBe(200);
    const status = { provider: 'stripe', connected: true, webhookUrl: `${inject('baseUrl')}/v1/webhooks/stripe/${tenant.userId}`, automaticTax: false, taxIdCollection: false };
    expect(res.body).toEqual(status);
    const shown = await tenant.get('/api/payment-provider');
    expect(shown.body).toEqual(status);
    expect(shown.text).not.toContain(secretKey);
    expect(shown.text).not.toContain('whsec_');

    const { data } = await localData().entities.paymentProvider.get({ tenantId: tenant.userId }).go();
    expect(data).toMatchObject({ provider: 'stripe', sealedSecretKey: expect.stringMatching(/^v2\./) });
    expect(JSON.stringify(data)).not.toContain(secretKey);
    expect(JSON.stringify(data)).not.toContain(webhookSecret);

    expect((await tenant.delete('/api/payment-provider')).status).toBe(204);
    expect((await tenant.get('/api/payment-provider')).body).toMatchObject({ provider: null, connected: false });
    expect((await tenant.delete('/api/payment-provider')).status).toBe(204);
  });

  it('signs license e-mails with the seller name and reply-to given, else with the account\'s name and e-mail', async () => {
    const tenant = await newTenant();
    const stored = async () => (await localData().entities.paymentProvider.get({ tenantId: tenant.userId }).go()).data;
    expect((await connect(tenant, stripeTestKey())).status).toBe(200);
    expect(await stored()).toMatchObject({ sellerName: 'Dev', replyTo: tenant.email });
    const res = await connect(tenant, stripeTestKey(), { sellerName: '  Acme Plugins ', replyTo: 'help@acme.example' });
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['automaticTax', 'connected', 'provider', 'taxIdCollection', 'webhookUrl']);
    expect(await stored()).toMatchObject({ sellerName: 'Acme Plugins', replyTo: 'help@acme.example' });
  });

  it('accepts a restricted key; an API key reads the connection, but only a signed-in session makes it (DECISIONS §20)', async () => {
    const tenant = await newTenant();
    const apiKey = (await tenant.post('/api/api-keys', { name: 'ci' })).body.key;
    const server = new Client();
    server.bearer = apiKey;
    expect(await connect(server, stripeTestKey(), {})).toMatchObject({ status: 403, body: { error: 'This route needs a signed-in session' } });
    const res = await connect(tenant, `rk_test_good${'x'.repeat(20)}`, {});
    expect(res.status, res.text).toBe(200);
    expect((await server.get('/api/payment-provider', { origin: null })).body.connected).toBe(true);
  });

  it('refuses a key Stripe refuses with 400, and writes nothing', async () => {
    const tenant = await newTenant();
    const res = await connect(tenant, stripeTestKey(false));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Stripe refused the secret key' });
    expect((await tenant.get('/api/payment-provider')).body.connected).toBe(false);
  });

  it('answers 502 when Stripe fails or cannot be reached, and writes nothing', async () => {
    const tenant = await newTenant();
    for (const outage of ['error', 'unreachable'] as const) {
      const key = stripeTestKey();
      await fake.setOutage(key, outage);
      const res = await connect(tenant, key);
      expect([outage, res.status]).toEqual([outage, 502]);
      expect(res.body).toEqual({ error: 'Payment provider unavailable' });
    }
    expect((await tenant.get('/api/payment-provider')).body.connected).toBe(false);
  });

  it('validates the shapes of the provider and both secrets', async () => {
    const tenant = await newTenant();
    const good = { provider: 'stripe', secretKey: stripeTestKey(), webhookSecret };
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ...good, provider: 'paypal' }, /^provider/],
      [{ ...good, provider: undefined }, /provider is required/],
      [{ ...good, secretKey: 'pk_test_good123456789012' }, /secretKey: must be a Stripe secret key/],
      [{ ...good, secretKey: undefined }, /secretKey is required/],
      [{ ...good, secretKey: 42 }, /secretKey/],
      [{ ...good, webhookSecret: 'secret_123456789012' }, /webhookSecret: must be a Stripe webhook signing secret/],
      [{ ...good, extra: true }, /Unknown field: extra/],
      [{ ...good, sellerName: '' }, /^sellerName/],
      [{ ...good, sellerName: 'x'.repeat(101) }, /^sellerName/],
      [{ ...good, sellerName: 7 }, /^sellerName/],
      [{ ...good, replyTo: 'not-an-address' }, /replyTo: must be a valid e-mail address/],
    ];
    for (const [body, message] of cases) {
      const res = await tenant.put('/api/payment-provider', body);
      expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), 400]);
      expect(res.body.error).toMatch(message);
    }
    expect((await tenant.get('/api/payment-provider')).body.connected).toBe(false);
  });

  it('needs authentication and, with a cookie, the dashboard origin', async () => {
    expect((await new Client().get('/api/payment-provider')).status).toBe(401);
    const tenant = await newTenant();
    const res = await tenant.put('/api/payment-provider', { provider: 'stripe', secretKey: stripeTestKey(), webhookSecret }, { origin: 'http://evil.test' });
    expect(res.status).toBe(403);
    expect((await tenant.delete('/api/payment-provider', { origin: null })).status).toBe(403);
  });
});
