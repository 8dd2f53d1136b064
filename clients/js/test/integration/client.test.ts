/** The JavaScript client against the local stack, through HTTP: every call and every answer it turns into a type. */
import { describe, expect, inject, it } from 'vitest';
import { newTenant } from '../../../../test/support/client.js';
import { fakeStripeClient, stripeTestKey } from '../../../../test/support/fake-stripe.js';
import { newLicense, newProduct, newRelease, type Product } from '../../../../test/support/licensing-fixtures.js';
import {
  ActivationNotFoundError,
  InvalidPublicKeyError,
  InvalidRequestError,
  LicenseError,
  LicenseExpiredError,
  LicenseNotFoundError,
  LicenseRevokedError,
  LicenseSuspendedError,
  LicensingClient,
  NetworkError,
  ProductNotCoveredError,
  ProductNotFoundError,
  SeatLimitReachedError,
  WrongProductError,
  memoryStorage,
  parseCheckoutReturn,
  type LicensingError,
  type ValidateResult,
} from '../../src/index.js';
import { closedPort } from '../support/script-server.js';

const baseUrl = inject('baseUrl');
const UNKNOWN_PUBLIC_KEY = `pk_${'a'.repeat(32)}`;

type Tenant = Awaited<ReturnType<typeof newTenant>>;

async function vendor() {
  const tenant = await newTenant();
  const product = await newProduct(tenant);
  const other = await newProduct(tenant);
  const client = new LicensingClient({ baseUrl, publicKey: product.public_key });
  return { tenant, product, other, client };
}

async function license(tenant: Tenant, product: Product, fields: Record<string, unknown> = {}) {
  return newLicense(tenant, product.id, fields);
}

async function rejection(promise: Promise<unknown>): Promise<LicensingError> {
  try {
    await promise;
  } catch (error) {
    return error as LicensingError;
  }
  throw new Error('expected a rejection');
}

function refusal(result: ValidateResult) {
  if (result.valid) throw new Error(`expected a refusal, got ${JSON.stringify(result)}`);
  return result.error;
}

describe('validate', () => {
  it('answers a usable key with the license and the product', async () => {
    const { tenant, product, client } = await vendor();
    const key = await license(tenant, product, { seats: 3 });
    const result = await client.validate(key.licenseKey, { domain: 'https://www.example.com/', version: '1.0.0' });
    expect(result).toMatchObject({
      valid: true,
      source: 'service',
      license: { key: key.licenseKey, status: 'active', seats: 3, activatedCount: 0, stagingCount: 0, expiresAt: null },
      product: { id: product.id, name: product.name, slug: product.slug },
    });
  });

  it('turns every refusal into its typed error: expired, suspended, revoked, not found, wrong product, not covered, invalid public key', async () => {
    const { tenant, product, other, client } = await vendor();
    const bundle = await newProduct(tenant, { productType: 'bundle', includes: [product.id, (await newProduct(tenant)).id] });
    const bundleKey = await license(tenant, bundle);
    const expired = await license(tenant, product, { expiresAt: '2020-01-01T00:00:00Z' });
    const suspended = await license(tenant, product);
    await tenant.put(`/api/licenses/${suspended.id}`, { status: 'suspended' });
    const revoked = await license(tenant, product);
    await tenant.post(`/api/licenses/${revoked.id}/revoke`);
    const good = await license(tenant, product);

    const cases: [string, LicensingClient, new (...args: never[]) => LicensingError, string, number][] = [
      [expired.licenseKey, client, LicenseExpiredError, 'expired', 400],
      [suspended.licenseKey, client, LicenseSuspendedError, 'suspended', 400],
      [revoked.licenseKey, client, LicenseRevokedError, 'revoked', 400],
      ['ACME-AAAA-BBBB-CCCC-DDDD', client, LicenseNotFoundError, 'not_found', 404],
      [good.licenseKey, new LicensingClient({ baseUrl, publicKey: product.public_key, productSlug: other.slug }), WrongProductError, 'wrong_product', 400],
      [good.licenseKey, new LicensingClient({ baseUrl, publicKey: UNKNOWN_PUBLIC_KEY }), InvalidPublicKeyError, 'invalid_public_key', 404],
      // Through another product's public key, a key is unknown (DECISIONS §4).
      [good.licenseKey, new LicensingClient({ baseUrl, publicKey: other.public_key }), LicenseNotFoundError, 'not_found', 404],
      // A bundle's key, through the public key of a product of the vendor that the bundle does not include (DECISIONS §23).
      [bundleKey.licenseKey, new LicensingClient({ baseUrl, publicKey: other.public_key }), ProductNotCoveredError, 'not_covered', 403],
    ];
    for (const [key, caller, type, code, status] of cases) {
      const error = refusal(await caller.validate(key));
      expect(error, code).toBeInstanceOf(type);
      expect(error, code).toBeInstanceOf(LicenseError);
      expect(error).toMatchObject({ code, status });
    }
    // The same key with the right product slug is fine.
    expect((await new LicensingClient({ baseUrl, publicKey: product.public_key, productSlug: product.slug }).validate(good.licenseKey)).valid).toBe(true);
  });

  it('answers bad input as an InvalidRequestError refusal', async () => {
    const { client } = await vendor();
    const error = refusal(await client.validate(''));
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error).toMatchObject({ status: 400, message: 'license_key is required' });
  });

  it('stands in with the cached answer when the service cannot be reached, and not after a revoke', async () => {
    const { tenant, product } = await vendor();
    const key = await license(tenant, product);
    const storage = memoryStorage();
    const online = new LicensingClient({ baseUrl, publicKey: product.public_key, cache: { storage } });
    const offline = new LicensingClient({ baseUrl: await closedPort(), publicKey: product.public_key, cache: { storage }, retryBaseMs: 5 });

    expect(await online.validate(key.licenseKey)).toMatchObject({ valid: true, source: 'service' });
    const cached = await offline.validate(key.licenseKey);
    expect(cached).toMatchObject({ valid: true, source: 'cache', license: { key: key.licenseKey } });
    if (cached.valid) expect(cached.unavailable).toBeInstanceOf(NetworkError);

    await tenant.post(`/api/licenses/${key.id}/revoke`);
    expect(refusal(await online.validate(key.licenseKey))).toBeInstanceOf(LicenseRevokedError);
    await expect(offline.validate(key.licenseKey)).rejects.toBeInstanceOf(NetworkError);
  });
});

describe('activate, check, deactivate', () => {
  it('activates a domain, answers the same activation again, checks it and frees it', async () => {
    const { tenant, product, client } = await vendor();
    const key = await license(tenant, product, { seats: 2 });

    const first = await client.activate(key.licenseKey, 'https://www.Shop.example.com/wp', { version: '1.0.0' });
    expect(first.activationId).toMatch(/^act_[a-z2-7]{24}$/);
    expect(Date.parse(first.activatedAt)).not.toBeNaN();
    expect(first.environment).toBe('production');
    expect(await client.activate(key.licenseKey, 'shop.example.com')).toEqual(first);

    expect(await client.check(key.licenseKey, 'shop.example.com')).toEqual({ activated: true, activationId: first.activationId });
    expect(await client.check(key.licenseKey, 'elsewhere.example.com')).toEqual({ activated: false, activationId: null });
    expect((await client.validate(key.licenseKey)).valid && (await client.validate(key.licenseKey))).toMatchObject({ license: { activatedCount: 1 } });

    await client.deactivate(key.licenseKey, 'shop.example.com');
    expect(await client.check(key.licenseKey, 'shop.example.com')).toEqual({ activated: false, activationId: null });

    // By activation id, then once more: nothing left to deactivate.
    const again = await client.activate(key.licenseKey, 'shop.example.com');
    expect(again.activationId).not.toBe(first.activationId);
    await client.deactivate(key.licenseKey, { activationId: again.activationId });
    const error = await rejection(client.deactivate(key.licenseKey, { activationId: again.activationId }));
    expect(error).toBeInstanceOf(ActivationNotFoundError);
    expect(error).toMatchObject({ code: 'activation_not_found', status: 400 });
    expect(await rejection(client.deactivate(key.licenseKey, 'never.example.com'))).toBeInstanceOf(ActivationNotFoundError);
  });

  it('refuses a full license with SeatLimitReachedError', async () => {
    const { tenant, product, client } = await vendor();
    const key = await license(tenant, product, { seats: 1 });
    await client.activate(key.licenseKey, 'one.example.com');
    const error = await rejection(client.activate(key.licenseKey, 'two.example.com'));
    expect(error).toBeInstanceOf(SeatLimitReachedError);
    expect(error).toMatchObject({ code: 'seat_limit', status: 400, message: 'License seat limit reached' });
  });

  it('throws the typed error of each license state on activate and check', async () => {
    const { tenant, product, other, client } = await vendor();
    const expired = await license(tenant, product, { expiresAt: '2020-01-01T00:00:00Z' });
    const suspended = await license(tenant, product);
    await tenant.put(`/api/licenses/${suspended.id}`, { status: 'suspended' });
    const revoked = await license(tenant, product);
    await tenant.post(`/api/licenses/${revoked.id}/revoke`);
    const good = await license(tenant, product);
    const wrongSlug = new LicensingClient({ baseUrl, publicKey: product.public_key, productSlug: other.slug });
    const badKey = new LicensingClient({ baseUrl, publicKey: UNKNOWN_PUBLIC_KEY });

    const cases: [() => Promise<unknown>, new (...args: never[]) => LicensingError][] = [
      [() => client.activate(expired.licenseKey, 'a.example.com'), LicenseExpiredError],
      [() => client.activate(suspended.licenseKey, 'a.example.com'), LicenseSuspendedError],
      [() => client.activate(revoked.licenseKey, 'a.example.com'), LicenseRevokedError],
      [() => client.activate('ACME-AAAA-BBBB-CCCC-DDDD', 'a.example.com'), LicenseNotFoundError],
      [() => wrongSlug.activate(good.licenseKey, 'a.example.com'), WrongProductError],
      [() => badKey.activate(good.licenseKey, 'a.example.com'), InvalidPublicKeyError],
      [() => client.activate(good.licenseKey, '   '), InvalidRequestError],
      [() => client.check(expired.licenseKey, 'a.example.com'), LicenseExpiredError],
      [() => client.check(suspended.licenseKey, 'a.example.com'), LicenseSuspendedError],
      [() => client.check(revoked.licenseKey, 'a.example.com'), LicenseRevokedError],
      [() => client.check('ACME-AAAA-BBBB-CCCC-DDDD', 'a.example.com'), LicenseNotFoundError],
      [() => wrongSlug.check(good.licenseKey, 'a.example.com'), WrongProductError],
      [() => badKey.check(good.licenseKey, 'a.example.com'), InvalidPublicKeyError],
      [() => badKey.deactivate(good.licenseKey, 'a.example.com'), InvalidPublicKeyError],
      [() => client.deactivate('ACME-AAAA-BBBB-CCCC-DDDD', 'a.example.com'), LicenseNotFoundError],
    ];
    for (const [call, type] of cases) expect(await rejection(call()), `${call}`).toBeInstanceOf(type);
    // An uninstalling plugin of an unusable license may still free its seat: no error for a deactivated domain's state.
    const seat = await license(tenant, product);
    await client.activate(seat.licenseKey, 'gone.example.com');
    await tenant.put(`/api/licenses/${seat.id}`, { status: 'suspended' });
    await client.deactivate(seat.licenseKey, 'gone.example.com');
  });

  it('sends an Idempotency-Key that the service accepts, also from a browser (CORS preflight)', async () => {
    const preflight = await fetch(`${baseUrl}/public/v1/licenses/activate`, {
      method: 'OPTIONS',
      headers: { origin: 'https://customer-site.test', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, idempotency-key' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toContain('idempotency-key');
    const { product } = await vendor();
    const answer = await fetch(`${baseUrl}/public/v1/plans?public_key=${product.public_key}`, { headers: { origin: 'https://customer-site.test' } });
    expect(answer.headers.get('access-control-expose-headers')).toContain('retry-after');
  });
});

describe('plans and checkout', () => {
  it('lists the plans on sale and builds checkout URLs the service redirects to the hosted checkout', async () => {
    const tenant = await newTenant();
    const product = await newProduct(tenant);
    const pro = (await tenant.post(`/api/products/${product.id}/plans`, { name: 'Pro', slug: 'pro', billingCycle: 'yearly', price: 49, currency: 'usd', siteLimit: 5 })).body;
    await tenant.post(`/api/products/${product.id}/plans`, { name: 'Hidden', billingCycle: 'yearly', price: 9, currency: 'usd', isPublic: false });
    expect((await tenant.put('/api/payment-provider', { provider: 'stripe', secretKey: stripeTestKey(), webhookSecret: 'whsec_dGVzdHNlY3JldHRlc3RzZWNyZXQ=' })).status).toBe(200);
    const client = new LicensingClient({ baseUrl, publicKey: product.public_key });

    const plans = await client.plans();
    expect(plans).toHaveLength(1);
    const publicId = pro.id.replace(/^pln_/, 'plan_');
    expect(plans[0]).toMatchObject({ id: publicId, slug: 'pro', price: 49, currency: 'USD', billingCycle: 'yearly', siteLimit: 5 });
    expect(client.checkoutUrl({ planId: publicId })).toBe(plans[0]!.checkoutUrl);

    const url = client.checkoutUrl({ plan: 'pro', email: 'buyer@example.com', returnUrl: 'https://app.test/thanks?from=app', activateParam: 'key' });
    expect(new URL(url).searchParams.get('return_url')).toBe('https://app.test/thanks?from=app');
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).toBe(303);
    const sessionId = /\/(cs_test_\w+)$/.exec(res.headers.get('location')!)![1]!;
    const session = (await fakeStripeClient(inject('stripeUrl')).session(sessionId))!;
    expect(session.params).toMatchObject({ customer_email: 'buyer@example.com', metadata: { activate_param: 'key', return_url: 'https://app.test/thanks?from=app' } });

    expect(parseCheckoutReturn('https://app.test/thanks?from=app&key=ACME-AAAA-BBBB-CCCC-DDDD', { activateParam: 'key' })).toEqual({
      status: 'activated',
      licenseKey: 'ACME-AAAA-BBBB-CCCC-DDDD',
    });
    expect(await rejection(new LicensingClient({ baseUrl, publicKey: UNKNOWN_PUBLIC_KEY }).plans())).toBeInstanceOf(InvalidPublicKeyError);
  });
});

describe('feedback, usage events, deactivation reasons', () => {
  it('records each with the key and domain, as the vendor then reads them', async () => {
    const { tenant, product, client } = await vendor();
    const key = await license(tenant, product);

    const feedback = await client.feedback({ type: 'bug', message: 'It broke', email: 'user@example.com', licenseKey: key.licenseKey, domain: 'https://www.site.example', metadata: { php: '8.2' } });
    expect(feedback.id).toMatch(/^fbk_/);
    await client.track('settings_saved', { tab: 'general' }, { licenseKey: key.licenseKey, domain: 'site.example' });
    const reason = await client.deactivationReason({ reason: 'too-expensive', details: 'Found a cheaper one', licenseKey: key.licenseKey, domain: 'site.example' });
    expect(reason.id).toMatch(/^drs_/);

    const listed = async (kind: string) => (await tenant.get(`/api/products/${product.id}/${kind}`)).body.items;
    expect(await listed('feedback')).toMatchObject([{ id: feedback.id, type: 'bug', message: 'It broke', email: 'user@example.com', licenseKey: key.licenseKey, domain: 'site.example', metadata: { php: '8.2' } }]);
    // Events are written by the service's queue writer within seconds of the 202.
    await expect.poll(() => listed('events'), { timeout: 15_000, interval: 100 }).toMatchObject([{ event: 'settings_saved', properties: { tab: 'general' }, licenseKey: key.licenseKey, domain: 'site.example' }]);
    expect(await listed('deactivation-reasons')).toMatchObject([{ id: reason.id, reason: 'too-expensive', details: 'Found a cheaper one', domain: 'site.example' }]);
  });

  it('refuses bad input and an unknown public key with typed errors', async () => {
    const { client } = await vendor();
    const empty = await rejection(client.feedback({ type: 'bug', message: '' }));
    expect(empty).toBeInstanceOf(InvalidRequestError);
    expect(empty.status).toBe(400);
    expect(await rejection(client.feedback({ type: 'praise' as 'bug', message: 'Hi' }))).toBeInstanceOf(InvalidRequestError);
    expect(await rejection(client.track('x'.repeat(101)))).toBeInstanceOf(InvalidRequestError);
    expect(await rejection(client.deactivationReason({ reason: '' }))).toBeInstanceOf(InvalidRequestError);
    const stranger = new LicensingClient({ baseUrl, publicKey: UNKNOWN_PUBLIC_KEY });
    for (const call of [() => stranger.feedback({ type: 'general', message: 'Hi' }), () => stranger.track('opened'), () => stranger.deactivationReason({ reason: 'other' })]) {
      expect(await rejection(call())).toBeInstanceOf(InvalidPublicKeyError);
    }
  });
});

describe('update check', () => {
  it('says whether a newer release exists and gives the download only to a usable key', async () => {
    const tenant = await newTenant();
    const product = await newProduct(tenant, { description: 'A plugin', tested: '6.4', requires: '6.0', requiresPhp: '7.4', homepage: 'https://plugin.example' });
    await newRelease(tenant, product.id, { version: '1.0.0', releaseNotes: 'First' });
    const latest = await newRelease(tenant, product.id, { version: '1.1.0', releaseNotes: 'Second' });
    const key = await newLicense(tenant, product.id);
    const client = new LicensingClient({ baseUrl, publicKey: product.public_key, productSlug: product.slug });

    const update = await client.checkForUpdate({ licenseKey: key.licenseKey, version: '1.0.0', domain: 'site.example' });
    expect(update).toMatchObject({
      latestVersion: '1.1.0',
      updateAvailable: true,
      downloadUrl: `${baseUrl}/v1/download/${latest.id}?license_key=${encodeURIComponent(key.licenseKey)}`,
      info: { slug: product.slug, new_version: '1.1.0', tested: '6.4', requires: '6.0', requires_php: '7.4', url: 'https://plugin.example' },
    });
    expect(update.info.sections.changelog).toContain('<h4>1.1.0</h4>');
    const download = await fetch(update.downloadUrl!, { redirect: 'manual' });
    expect(download.status).toBe(302);

    expect(await client.checkForUpdate({ licenseKey: key.licenseKey, version: '1.1.0' })).toMatchObject({ updateAvailable: false, latestVersion: '1.1.0' });
    await tenant.post(`/api/licenses/${key.id}/revoke`);
    expect(await client.checkForUpdate({ licenseKey: key.licenseKey, version: '1.0.0' })).toMatchObject({ updateAvailable: true, downloadUrl: null });

    const unknown = await rejection(client.checkForUpdate({ slug: 'no-such-product-slug-xyz', licenseKey: key.licenseKey, version: '1.0.0' }));
    expect(unknown).toBeInstanceOf(ProductNotFoundError);
    expect(unknown).toMatchObject({ status: 404, code: 'product_not_found' });
    expect(await rejection(client.checkForUpdate({ licenseKey: key.licenseKey, version: '' }))).toBeInstanceOf(InvalidRequestError);
  });

  it("sends the site's channel and versions, and lists the versions a license may roll back to", async () => {
    const tenant = await newTenant();
    const product = await newProduct(tenant, { requiresPhp: '7.4' });
    const stable = await newRelease(tenant, product.id, { version: '1.0.0' });
    await newRelease(tenant, product.id, { version: '1.1.0', requiresPhp: '8.3' });
    const beta = await newRelease(tenant, product.id, { version: '2.0.0-beta.1', channel: 'beta' });
    const betaKey = await newLicense(tenant, product.id, { channel: 'beta' });
    const client = new LicensingClient({ baseUrl, publicKey: product.public_key, productSlug: product.slug });
    const validation = await client.validate(betaKey.licenseKey);
    expect(validation).toMatchObject({ valid: true, license: { channel: 'beta' } });

    const offered = (input: { channel?: 'stable' | 'beta'; php?: string; wp?: string }) =>
      client.checkForUpdate({ licenseKey: betaKey.licenseKey, version: '1.0.0', ...input }).then((update) => update.latestVersion);
    expect(await offered({ channel: 'beta', php: '8.2.12', wp: '6.5' })).toBe('2.0.0-beta.1');
    expect(await offered({ channel: 'stable', php: '8.2.12' })).toBe('1.0.0');
    expect(await offered({ channel: 'stable', php: '8.3.0' })).toBe('1.1.0');
    expect(await rejection(client.checkForUpdate({ licenseKey: betaKey.licenseKey, version: '1.0.0', php: 'eight' }))).toBeInstanceOf(InvalidRequestError);

    const versions = await client.versions({ licenseKey: betaKey.licenseKey });
    expect(versions.map((v) => `${v.version} ${v.channel}`)).toEqual(['2.0.0-beta.1 beta', '1.1.0 stable', '1.0.0 stable']);
    expect(versions[0]!.package).toBe(`${baseUrl}/v1/download/${beta.id}?license_key=${encodeURIComponent(betaKey.licenseKey)}`);
    const stableKey = await newLicense(tenant, product.id);
    const stableVersions = await client.versions({ licenseKey: stableKey.licenseKey });
    expect(stableVersions.map((v) => v.version)).toEqual(['1.1.0', '1.0.0']);
    expect(stableVersions[1]!.package).toContain(`/v1/download/${stable.id}?`);
    await tenant.post(`/api/licenses/${stableKey.id}/revoke`);
    expect(await rejection(client.versions({ licenseKey: stableKey.licenseKey }))).toBeInstanceOf(LicenseRevokedError);
    expect(await rejection(client.versions({ slug: 'no-such-product-slug-xyz', licenseKey: betaKey.licenseKey }))).toBeInstanceOf(ProductNotFoundError);
  });

  it('tells an expired license to renew, with its plan\'s checkout', async () => {
    const tenant = await newTenant();
    const product = await newProduct(tenant);
    await newRelease(tenant, product.id, { version: '1.0.0' });
    const plan = await tenant.post(`/api/products/${product.id}/plans`, { name: 'Pro', billingCycle: 'yearly', price: 49, currency: 'usd' });
    expect(plan.status, plan.text).toBe(201);
    const expired = await newLicense(tenant, product.id, { planId: plan.body.id, expiresAt: '2020-01-01T00:00:00Z' });
    const client = new LicensingClient({ baseUrl, publicKey: product.public_key, productSlug: product.slug });

    const update = await client.checkForUpdate({ licenseKey: expired.licenseKey, version: '0.9.0' });
    const planId = plan.body.id.replace(/^pln_/, 'plan_');
    expect(update).toMatchObject({ latestVersion: '1.0.0', updateAvailable: true, downloadUrl: null });
    expect(update.renewal).toEqual({ notice: 'Renew your license to update to 1.0.0', url: client.checkoutUrl({ planId }) });
    const current = await newLicense(tenant, product.id);
    expect((await client.checkForUpdate({ licenseKey: current.licenseKey, version: '0.9.0' })).renewal).toBeNull();
  });
});
