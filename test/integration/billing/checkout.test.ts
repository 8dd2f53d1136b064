import { describe, expect, inject, it } from 'vitest';
import { Client, newTenant } from '../../support/client.js';
import { fakeStripeClient, stripeTestKey } from '../../support/fake-stripe.js';
import { localData } from '../../support/table.js';

const fake = fakeStripeClient(inject('stripeUrl'));
const base = inject('baseUrl');
const buyer = new Client();
const webhookSecret = 'whsec_dGVzdHNlY3JldHRlc3RzZWNyZXQ=';

async function created(res: Promise<{ status: number; body: any; text: string }>) {
  const { status, body, text } = await res;
  expect(status, text).toBe(201);
  return body;
}

/** A tenant with a product, four plans (yearly, monthly, lifetime, and one in JPY) and, unless told not to, Stripe connected. */
async function shop(options: { connected?: boolean } = {}) {
  const tenant = await newTenant();
  const product = await created(tenant.post('/api/products', { name: 'Shop Plugin', productType: 'plugin' }));
  const plans = `/api/products/${product.id}/plans`;
  const pro = await created(tenant.post(plans, { name: 'Pro', slug: 'pro', billingCycle: 'yearly', price: 49.5, currency: 'usd', siteLimit: 5 }));
  const monthly = await created(tenant.post(plans, { name: 'Monthly', billingCycle: 'monthly', price: 9.99, currency: 'eur' }));
  const lifetime = await created(tenant.post(plans, { name: 'Forever', billingCycle: 'lifetime', price: 199, currency: 'usd', siteLimit: 3 }));
  const yen = await created(tenant.post(plans, { name: 'Yen', billingCycle: 'lifetime', price: 4900, currency: 'jpy' }));
  const hidden = await created(tenant.post(plans, { name: 'Hidden', billingCycle: 'yearly', price: 10, currency: 'usd', isPublic: false }));
  const retired = await created(tenant.post(plans, { name: 'Retired', billingCycle: 'yearly', price: 10, currency: 'usd', isActive: false }));
  const secretKey = stripeTestKey();
  if (options.connected !== false) {
    const res = await tenant.put('/api/payment-provider', { provider: 'stripe', secretKey, webhookSecret });
    expect(res.status, res.text).toBe(200);
  }
  return { tenant, product, publicKey: product.public_key as string, plans: { pro, monthly, lifetime, yen, hidden, retired }, secretKey };
}

const publicId = (planId: string) => planId.replace(/^pln_/, 'plan_');

/** Follows nothing: the 303 and what the fake Stripe recorded for the session it names. */
async function checkout(path: string) {
  const res = await buyer.get(path, { origin: null });
  expect(res.status, res.text).toBe(303);
  const location = res.headers.get('location')!;
  const sessionId = /\/(cs_test_\w+)$/.exec(location)![1]!;
  const session = (await fake.session(sessionId))!;
  expect(session).not.toBeNull();
  return { res, location, sessionId, params: session.params as any };
}

const query = (params: Record<string, string>) => new URLSearchParams(params).toString();

describe('public plans', () => {
  it('lists the active public plans only, with public ids and checkout links, open to any origin', async () => {
    const { publicKey, plans } = await shop();
    const res = await buyer.get(`/public/v1/plans?public_key=${publicKey}`, { origin: 'https://somewhere.test' });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const shown = (plan: any) => ({
      id: publicId(plan.id),
      name: plan.name,
      slug: plan.slug,
      price: plan.price,
      currency: plan.currency,
      billingCycle: plan.billingCycle,
      siteLimit: plan.siteLimit,
      features: [],
      checkoutUrl: `${base}/public/v1/checkout/${publicId(plan.id)}?public_key=${publicKey}`,
    });
    expect(res.body).toEqual({ plans: [plans.pro, plans.monthly, plans.lifetime, plans.yen].map(shown) });
    expect(res.body.plans[0]).toMatchObject({ id: expect.stringMatching(/^plan_[a-z2-7]{24}$/), price: 49.5, currency: 'USD' });
  });

  it('refuses a missing, unknown or malformed public key, and a deleted product', async () => {
    const { tenant, product, publicKey } = await shop({ connected: false });
    expect(await buyer.get('/public/v1/plans', { origin: null })).toMatchObject({ status: 400, body: { error: 'public_key is required' } });
    for (const key of [`pk_${'a'.repeat(32)}`, 'nope']) {
      expect(await buyer.get(`/public/v1/plans?public_key=${key}`, { origin: null })).toMatchObject({ status: 404, body: { error: 'Invalid public_key' } });
    }
    expect((await tenant.delete(`/api/products/${product.id}`)).status).toBe(204);
    expect((await buyer.get(`/public/v1/plans?public_key=${publicKey}`, { origin: null })).status).toBe(404);
  });
});

describe('checkout', () => {
  it('opens a yearly subscription by slug with the exact metadata, price, e-mail and return addresses', async () => {
    const { tenant, product, publicKey, plans, secretKey } = await shop();
    const returnUrl = 'https://app.example.com/welcome?from=pricing';
    const { res, location, params, sessionId } = await checkout(
      `/public/v1/checkout?${query({ public_key: publicKey, plan: 'pro', email: 'buyer@example.com', return_url: returnUrl })}`,
    );
    expect(location).toBe(`https://checkout.stripe.test/c/pay/${sessionId}`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const metadata = {
      developer_id: tenant.userId,
      product_id: product.id,
      // The plan as sold, which the license is issued from.
      plan_id: plans.pro.id,
      plan_name: 'Pro',
      billing_cycle: 'yearly',
      price: '49.5',
      currency: 'USD',
      seats: '5',
      channel: 'stable',
      return_url: returnUrl,
      activate_param: 'svc_activate',
      pending_param: 'svc_pending',
    };
    expect(params).toEqual({
      mode: 'subscription',
      line_items: [
        { quantity: '1', price_data: { currency: 'usd', unit_amount: '4950', product: plans.pro.id, recurring: { interval: 'year' } } },
      ],
      customer_email: 'buyer@example.com',
      metadata,
      subscription_data: { metadata },
      automatic_tax: { enabled: 'false' },
      tax_id_collection: { enabled: 'false' },
      success_url: `${base}/public/v1/checkout/return?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: returnUrl,
    });
    // The plan's own Stripe product (DECISIONS §20), made on the account by its first checkout, named for buyers.
    expect(await fake.product(secretKey, plans.pro.id)).toMatchObject({ id: plans.pro.id, name: 'Shop Plugin – Pro', active: true, metadata: { plan_id: plans.pro.id } });
    // Renamed, the plan is sold under its new name.
    expect((await tenant.put(`/api/products/${product.id}/plans/${plans.pro.id}`, { name: 'Pro Plus' })).status).toBe(200);
    await checkout(`/public/v1/checkout?${query({ public_key: publicKey, plan: 'pro' })}`);
    expect(await fake.product(secretKey, plans.pro.id)).toMatchObject({ name: 'Shop Plugin – Pro Plus' });
  });

  it('opens a monthly subscription by public plan id, and a one-time payment for a lifetime plan by pln_ id', async () => {
    const { publicKey, plans } = await shop();
    const monthly = await checkout(`/public/v1/checkout/${publicId(plans.monthly.id)}?public_key=${publicKey}`);
    expect(monthly.params).toMatchObject({
      mode: 'subscription',
      line_items: [{ price_data: { currency: 'eur', unit_amount: '999', recurring: { interval: 'month' } } }],
      cancel_url: base,
    });
    expect(monthly.params.customer_email).toBeUndefined();
    expect(monthly.params.metadata.return_url).toBe('');

    const lifetime = await checkout(
      `/public/v1/checkout/${plans.lifetime.id}?${query({ public_key: publicKey, activate_param: 'key', pending_param: 'wait-1' })}`,
    );
    expect(lifetime.params.mode).toBe('payment');
    expect(lifetime.params.line_items[0].price_data).toEqual({ currency: 'usd', unit_amount: '19900', product: plans.lifetime.id });
    expect(lifetime.params.subscription_data).toBeUndefined();
    expect(lifetime.params.metadata).toMatchObject({ plan_id: plans.lifetime.id, activate_param: 'key', pending_param: 'wait-1' });

    const yen = await checkout(`/public/v1/checkout/${publicId(plans.yen.id)}?public_key=${publicKey}`);
    expect(yen.params.line_items[0].price_data).toMatchObject({ currency: 'jpy', unit_amount: '4900' });
  });

  it('answers 404 for unknown, inactive, private and other products’ plans, and for bad public keys', async () => {
    const { publicKey, plans } = await shop();
    const other = await shop();
    const notFound = { status: 404, body: { error: 'Plan not found' } };
    const paths = [
      `/public/v1/checkout?${query({ public_key: publicKey, plan: 'nope' })}`,
      `/public/v1/checkout?${query({ public_key: publicKey, plan: plans.hidden.slug })}`,
      `/public/v1/checkout?${query({ public_key: publicKey, plan: plans.retired.slug })}`,
      `/public/v1/checkout/${publicId(plans.hidden.id)}?public_key=${publicKey}`,
      `/public/v1/checkout/${plans.retired.id}?public_key=${publicKey}`,
      `/public/v1/checkout/${publicId(other.plans.pro.id)}?public_key=${publicKey}`,
      `/public/v1/checkout/${other.plans.pro.id}?public_key=${publicKey}`,
      `/public/v1/checkout/plan_nope?public_key=${publicKey}`,
      `/public/v1/checkout/prd_${'a'.repeat(24)}?public_key=${publicKey}`,
    ];
    for (const path of paths) expect([path, await buyer.get(path, { origin: null })]).toMatchObject([path, notFound]);
    expect(await buyer.get(`/public/v1/checkout?plan=pro`, { origin: null })).toMatchObject({ status: 400, body: { error: 'public_key is required' } });
    expect(await buyer.get(`/public/v1/checkout/${plans.pro.id}`, { origin: null })).toMatchObject({ status: 400, body: { error: 'public_key is required' } });
    expect(await buyer.get(`/public/v1/checkout?public_key=pk_${'b'.repeat(32)}&plan=pro`, { origin: null })).toMatchObject({
      status: 404,
      body: { error: 'Invalid public_key' },
    });
  });

  it('refuses bad input with 400', async () => {
    const { publicKey } = await shop();
    const cases: [Record<string, string>, string][] = [
      [{ public_key: publicKey }, 'plan is required'],
      [{ public_key: publicKey, plan: 'pro', return_url: 'javascript:alert(1)' }, 'return_url must be an http(s) URL'],
      [{ public_key: publicKey, plan: 'pro', return_url: 'ftp://example.com/x' }, 'return_url must be an http(s) URL'],
      [{ public_key: publicKey, plan: 'pro', return_url: 'not a url' }, 'return_url must be an http(s) URL'],
      [{ public_key: publicKey, plan: 'pro', return_url: `https://example.com/${'x'.repeat(500)}` }, 'return_url must be at most 500 characters'],
      [{ public_key: publicKey, plan: 'pro', email: 'not-an-email' }, 'email must be a valid e-mail address'],
      [{ public_key: publicKey, plan: 'pro', activate_param: 'a b' }, 'activate_param must be 1 to 64 letters, digits, _ or -'],
      [{ public_key: publicKey, plan: 'pro', pending_param: '' }, 'pending_param must be 1 to 64 letters, digits, _ or -'],
      [{ public_key: publicKey, plan: 'pro', pending_param: 'x'.repeat(65) }, 'pending_param must be 1 to 64 letters, digits, _ or -'],
    ];
    for (const [params, error] of cases) {
      const res = await buyer.get(`/public/v1/checkout?${query(params)}`, { origin: null });
      expect([params, res.status, res.body.error]).toEqual([params, 400, error]);
    }
  });

  it("sends the buyer back only to an origin the product lists: another is 400; a product without a list sends back anywhere", async () => {
    const { tenant, product, publicKey, plans } = await shop();
    // Set before the first checkout: the public surface caches a product for up to 60 s.
    const listed = await tenant.put(`/api/products/${product.id}`, { returnOrigins: ['https://shop.example.com', 'http://localhost:5173'] });
    expect(listed.status, listed.text).toBe(200);
    const open = (returnUrl: string, path = `/public/v1/checkout?${query({ public_key: publicKey, plan: 'pro', return_url: returnUrl })}`) =>
      buyer.get(path, { origin: null });
    for (const allowed of ['https://shop.example.com/thanks?plan=pro', 'https://SHOP.example.com:443/', 'http://localhost:5173/done']) {
      const res = await open(allowed);
      expect([allowed, res.status], res.text).toEqual([allowed, 303]);
      const sessionId = /\/(cs_test_\w+)$/.exec(res.headers.get('location')!)![1]!;
      expect((await fake.session(sessionId))!.params).toMatchObject({ cancel_url: allowed, metadata: { return_url: allowed } });
    }
    const refused = { status: 400, body: { error: 'return_url is not allowed for this product' } };
    for (const other of [
      'https://evil.example.net/steal', 'http://shop.example.com/thanks', 'https://shop.example.com:8443/', 'https://shop.example.com.evil.net/',
      'https://sub.shop.example.com/', 'http://localhost:5174/',
    ]) {
      expect([other, await open(other)]).toMatchObject([other, refused]);
    }
    expect(await open('https://evil.example.net/', `/public/v1/checkout/${plans.lifetime.id}?${query({ public_key: publicKey, return_url: 'https://evil.example.net/' })}`)).toMatchObject(refused);
    // Without a return URL the key goes by e-mail only: nothing to check.
    expect((await buyer.get(`/public/v1/checkout?${query({ public_key: publicKey, plan: 'pro' })}`, { origin: null })).status).toBe(303);

    const unlisted = await shop();
    const anywhere = await buyer.get(`/public/v1/checkout?${query({ public_key: unlisted.publicKey, plan: 'pro', return_url: 'https://anywhere.example.net/x' })}`, { origin: null });
    expect(anywhere.status, anywhere.text).toBe(303);
  });

  it('is not available without a connected provider, nor once it is disconnected', async () => {
    const unavailable = { status: 400, body: { error: 'Checkout is not available for this product' } };
    const never = await shop({ connected: false });
    expect(await buyer.get(`/public/v1/checkout?public_key=${never.publicKey}&plan=pro`, { origin: null })).toMatchObject(unavailable);
    const { tenant, publicKey } = await shop();
    await checkout(`/public/v1/checkout?public_key=${publicKey}&plan=pro`);
    expect((await tenant.delete('/api/payment-provider')).status).toBe(204);
    expect(await buyer.get(`/public/v1/checkout?public_key=${publicKey}&plan=pro`, { origin: null })).toMatchObject(unavailable);
  });

  it('answers a browser that cannot be sold to with a page in words, same status; other callers keep the JSON (DECISIONS §22)', async () => {
    const browser = { origin: null, headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' } };
    const never = await shop({ connected: false });
    const unconnected = await buyer.get(`/public/v1/checkout?public_key=${never.publicKey}&plan=pro`, browser);
    expect(unconnected.status).toBe(400);
    expect(unconnected.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(unconnected.text).toContain('<h1>This product cannot be bought online yet</h1>');
    expect(unconnected.text).not.toContain('"error"');
    const retired = await buyer.get(`/public/v1/checkout/${publicId(never.plans.retired.id)}?public_key=${never.publicKey}`, browser);
    expect(retired.status).toBe(404);
    expect(retired.text).toContain('<h1>This plan is not on sale</h1>');
    const unknownKey = await buyer.get('/public/v1/checkout?public_key=pk_nothing&plan=pro', browser);
    expect(unknownKey.status).toBe(404);
    expect(unknownKey.text).toContain('<h1>This checkout link is not valid</h1>');
    const json = await buyer.get(`/public/v1/checkout?public_key=${never.publicKey}&plan=pro`, { origin: null, headers: { accept: 'application/json' } });
    expect(json).toMatchObject({ status: 400, body: { error: 'Checkout is not available for this product' } });
  });

  it('answers 502 when Stripe fails or cannot be reached, and 400 once Stripe refuses the vendor’s key', async () => {
    const { publicKey, secretKey } = await shop();
    const path = `/public/v1/checkout?public_key=${publicKey}&plan=pro`;
    for (const outage of ['error', 'unreachable'] as const) {
      await fake.setOutage(secretKey, outage);
      expect([outage, await buyer.get(path, { origin: null })]).toMatchObject([outage, { status: 502, body: { error: 'Payment provider unavailable' } }]);
    }
    await fake.setOutage(secretKey, null);
    await checkout(path);
    await fake.setOutage(secretKey, 'revoked');
    expect(await buyer.get(path, { origin: null })).toMatchObject({ status: 400, body: { error: 'Checkout is not available for this product' } });
  });
});

describe('checkout return', () => {
  async function openedSession(params: Record<string, string> = {}) {
    const { publicKey } = await shop();
    return (await checkout(`/public/v1/checkout?${query({ public_key: publicKey, plan: 'pro', ...params })}`)).sessionId;
  }
  /** What the Stripe webhook does once it has issued the license. */
  const issue = (sessionId: string, licenseKey: string) =>
    localData().entities.checkoutSession.patch({ checkoutSessionId: sessionId }).set({ licenseKey }).go();
  const back = (sessionId: string) => buyer.get(`/public/v1/checkout/return?session_id=${sessionId}`, { origin: null });

  it('sends the buyer back pending, then with the key, keeping the return URL’s own query', async () => {
    const sessionId = await openedSession({ return_url: 'https://app.example.com/done?plan=pro&svc_pending=0' });
    const pending = await back(sessionId);
    expect(pending.status).toBe(303);
    expect(pending.headers.get('location')).toBe('https://app.example.com/done?plan=pro&svc_pending=1');
    await issue(sessionId, 'SHOP-ABCD-EFGH-JKLM-NPQR');
    const done = await back(sessionId);
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('https://app.example.com/done?plan=pro&svc_pending=0&svc_activate=SHOP-ABCD-EFGH-JKLM-NPQR');
  });

  it('uses the custom parameter names', async () => {
    const sessionId = await openedSession({ return_url: 'http://localhost:5173/thanks', activate_param: 'license', pending_param: 'wait' });
    expect((await back(sessionId)).headers.get('location')).toBe('http://localhost:5173/thanks?wait=1');
    await issue(sessionId, 'SHOP-2345-6789-ABCD-EFGH');
    expect((await back(sessionId)).headers.get('location')).toBe('http://localhost:5173/thanks?license=SHOP-2345-6789-ABCD-EFGH');
  });

  it('shows a small page that the key is on its way by e-mail without a return URL', async () => {
    const sessionId = await openedSession();
    const res = await back(sessionId);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.text).toContain('Your license key is on its way to you by e-mail.');
  });

  it('answers 404 for an unknown or malformed session id, and 400 without one', async () => {
    for (const id of [`cs_test_${'a'.repeat(58)}`, 'cs_nope', 'x'.repeat(200), '%00']) {
      expect([id, (await back(id)).status]).toEqual([id, 404]);
    }
    expect(await buyer.get('/public/v1/checkout/return', { origin: null })).toMatchObject({ status: 400, body: { error: 'session_id is required' } });
  });
});
