import { isIP } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalStack, type LocalStack } from '../../../infra/local/stack.js';
import { randomBase32 } from '../../../shared/platform/ids.js';
import { generateLicenseKey } from '../../../shared/licensing/licenses/license-key.js';
import { RATE_LIMITS } from '../../../shared/platform/rate-limits/limits.js';
import { requestFrom } from '../../support/addressed-client.js';
import { Client } from '../../support/client.js';
import { DASHBOARD_URL, TEST_PASSWORD_HASH_COST } from '../../support/global-setup.js';

/**
 * Every limit at its real size (RATE_LIMIT_SCALE 1), over HTTP, on a stack of this file's own. Each test
 * calls from an address of its own, so each is a separate caller to the per-address buckets.
 * Recovery of each table bucket is shown with a moving clock in rate-limit-buckets.test.ts.
 */
let stack: LocalStack;
/**
 * This file plays the front door (CloudFront): the functions insist on its secret (ORIGIN_VERIFY_TOKEN), and every
 * request carries it with the viewer's address in `cloudfront-viewer-address`, as CloudFront's do, so that a test can be
 * a caller at any address, IPv6 included.
 */
const ORIGIN_VERIFY_TOKEN = 'rate-limit-test-origin-token';
const throughFrontDoor = (viewer: string) => ({ 'x-origin-verify': ORIGIN_VERIFY_TOKEN, 'cloudfront-viewer-address': viewer });
beforeAll(async () => {
  stack = await startLocalStack({
    port: 0,
    dataDir: ':memory:',
    lightJvm: true,
    env: {
      DASHBOARD_URL, RATE_LIMIT_SCALE: '1', EXPIRY_SWEEP_INTERVAL_MS: '0', ORIGIN_VERIFY_TOKEN, PASSWORD_HASH_COST: TEST_PASSWORD_HASH_COST,
      // A GitHub client, so that its sign-in start route answers (it never reaches GitHub in these tests).
      GITHUB_CLIENT_ID: 'rate-limit-test', GITHUB_CLIENT_SECRET: 'rate-limit-test-secret',
    },
  });
}, 120_000);
afterAll(() => stack?.stop());

/** A caller at `address` (IPv4 or IPv6), as the front door hands it on. */
const from = (address: string) => {
  const headers = throughFrontDoor(isIP(address) === 6 ? `[${address}]:443` : `${address}:443`);
  return {
    post: (path: string, body: unknown) => requestFrom('127.0.0.1', stack.url, 'POST', path, body, headers),
    get: (path: string) => requestFrom('127.0.0.1', stack.url, 'GET', path, undefined, headers),
  };
};
/** A vendor's browser or server, through the front door from the loopback address. */
class FrontDoorClient extends Client {
  override request(method: string, path: string, options: Parameters<Client['request']>[2] = {}) {
    return super.request(method, path, { ...options, headers: { ...throughFrontDoor('127.0.0.1:443'), ...options.headers } });
  }
}
const unknownKey = () => generateLicenseKey('NOPE-');
const unknownPublicKey = () => `pk_${randomBase32(20)}`;
const password = 'correct horse battery';
const email = () => `limit-${randomBase32(5)}@example.com`;

/** Sends `count` requests one after another; every answer must have `status`. */
async function spend(count: number, send: (n: number) => Promise<{ status: number }>, status: number) {
  for (let n = 0; n < count; n++) expect((await send(n)).status, `request ${n + 1}`).toBe(status);
}

/**
 * Sends until the limit refuses (or twice its capacity has passed), and returns the refusal. The bucket refills
 * while the requests run, so a slow machine earns a few tokens more: at least `capacity` are allowed, and at most
 * what the time taken earned on top.
 */
async function spendUntilRefused<R extends { status: number }>(limit: { capacity: number; refillPerSecond: number }, send: () => Promise<R>, status: number): Promise<R> {
  const started = Date.now();
  let allowed = 0;
  let answer = await send();
  while (answer.status === status && allowed < 2 * limit.capacity) {
    allowed++;
    answer = await send();
  }
  const earned = Math.ceil(((Date.now() - started) / 1000) * limit.refillPerSecond);
  expect(allowed).toBeGreaterThanOrEqual(limit.capacity);
  expect(allowed).toBeLessThanOrEqual(limit.capacity + earned);
  return answer;
}

/** Polls until `send` is no longer refused with 429; fails after `timeoutMs`. */
async function recovers(send: () => Promise<{ status: number }>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await send();
    if (res.status !== 429) return res;
    if (Date.now() > deadline) throw new Error('still refused');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('rate limits', () => {
  it('limits registrations per address', { timeout: 120_000 }, async () => {
    const caller = from('127.0.0.2');
    await spend(RATE_LIMITS.registerAddress.capacity, () => caller.post('/api/auth/register', { email: email(), password }), 201);
    const refused = await caller.post('/api/auth/register', { email: email(), password });
    expect([refused.status, refused.body]).toEqual([429, { error: 'Too many registrations from this address; try again later' }]);
    expect(refused.headers['retry-after']).toBe('360');
    expect((await from('127.0.0.3').post('/api/auth/register', { email: email(), password })).status).toBe(201);
  });

  it('limits login attempts per address, across accounts (a password spray)', { timeout: 120_000 }, async () => {
    const caller = from('127.0.0.4');
    const refused = await spendUntilRefused(RATE_LIMITS.loginAddress, () => caller.post('/api/auth/login', { email: email(), password }), 401);
    expect([refused.status, refused.body]).toEqual([429, { error: 'Too many login attempts; try again later' }]);
    // One token every 15 s: the next is at most that far, less if the attempts took long enough to earn one.
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(15);
  });

  /** Wrong passwords from `address` until the account's bucket refuses; the address has failed at the account then. */
  const emptyAccountBucket = (account: string, address: string) =>
    spendUntilRefused(RATE_LIMITS.loginEmail, () => from(address).post('/api/auth/login', { email: account, password: 'wrong password' }), 401);

  it('limits login attempts per account, but not the right password from an address that has not failed', { timeout: 120_000 }, async () => {
    const account = email();
    expect((await from('127.0.0.5').post('/api/auth/register', { email: account, password })).status).toBe(201);
    // Someone empties the account's bucket with wrong passwords; from their address, the right password is refused too.
    const refused = await emptyAccountBucket(account, '127.0.1.1');
    expect([refused.status, refused.body.error]).toEqual([429, 'Too many login attempts; try again later']);
    expect(refused.headers['retry-after']).toBe('12');
    expect((await from('127.0.1.1').post('/api/auth/login', { email: account, password })).status).toBe(429);
    // The owner, from an address that has not failed, gets in.
    expect((await from('127.0.1.100').post('/api/auth/login', { email: account, password })).status).toBe(200);
    // Another account is not affected.
    const other = email();
    await from('127.0.0.5').post('/api/auth/register', { email: other, password });
    expect((await from('127.0.0.6').post('/api/auth/login', { email: other, password })).status).toBe(200);
  });

  it('checks one password at a time from an address that has not failed at an emptied account', { timeout: 120_000 }, async () => {
    const account = email();
    await from('127.0.0.7').post('/api/auth/register', { email: account, password });
    await emptyAccountBucket(account, '127.0.0.7');
    const started = Date.now();
    const parallel = await Promise.all(
      Array.from({ length: 6 }, () => from('127.0.2.1').post('/api/auth/login', { email: account, password: 'wrong password' })),
    );
    // One is checked (a wrong password: 401); the account's bucket may have earned a token meanwhile (one per 12 s).
    const earned = Math.ceil(((Date.now() - started) / 1000) * RATE_LIMITS.loginEmail.refillPerSecond);
    const checked = parallel.filter((r) => r.status === 401).length;
    expect(checked).toBeGreaterThanOrEqual(1);
    expect(checked).toBeLessThanOrEqual(1 + earned);
    expect(parallel.filter((r) => r.status !== 401).map((r) => r.status)).toEqual(Array(6 - checked).fill(429));
  });

  it('bounds the checks from addresses that have not failed, so that many addresses cannot guess on', { timeout: 180_000 }, async () => {
    const account = email();
    await from('127.0.0.7').post('/api/auth/register', { email: account, password });
    await emptyAccountBucket(account, '127.0.0.7');
    // The overflow's own refill and the account bucket's: either lets one more through while the requests run.
    const either = {
      capacity: RATE_LIMITS.loginEmailOverflow.capacity,
      refillPerSecond: RATE_LIMITS.loginEmailOverflow.refillPerSecond + RATE_LIMITS.loginEmail.refillPerSecond,
    };
    let host = 0;
    const refused = await spendUntilRefused(either, () => from(`127.0.4.${++host}`).post('/api/auth/login', { email: account, password: 'wrong password' }), 401);
    expect([refused.status, refused.body.error]).toEqual([429, 'Too many login attempts; try again later']);
  });

  it('fills the account\'s bucket again on a successful login', { timeout: 120_000 }, async () => {
    const fresh = email();
    await from('127.0.0.7').post('/api/auth/register', { email: fresh, password });
    await spend(4, () => from('127.0.0.8').post('/api/auth/login', { email: fresh, password: 'wrong password' }), 401);
    expect((await from('127.0.0.8').post('/api/auth/login', { email: fresh, password })).status).toBe(200);
    await spend(RATE_LIMITS.loginEmail.capacity, () => from('127.0.0.8').post('/api/auth/login', { email: fresh, password: 'wrong password' }), 401);
  });

  it('limits activations and deactivations per license key, whatever the address, and recovers', async () => {
    const key = unknownKey();
    const activate = (n: number) => from(`127.0.3.${n + 1}`).post('/v1/licenses/activate', { license_key: key, domain: 'example.com' });
    const deactivate = (n: number) => from(`127.0.3.${n + 1}`).post('/v1/licenses/deactivate', { license_key: key, domain: 'example.com' });
    // Both operations draw on the key's one bucket; an unknown key spends tokens too (no free guessing).
    await spend(RATE_LIMITS.activationKey.capacity / 2, activate, 404);
    await spend(RATE_LIMITS.activationKey.capacity / 2, (n) => deactivate(n + 20), 404);
    const refused = await activate(100);
    expect([refused.status, refused.body]).toEqual([429, { error: 'Too many requests' }]);
    expect(refused.headers['retry-after']).toBe('6');
    expect((await from('127.0.3.101').post('/v1/licenses/activate', { license_key: unknownKey(), domain: 'example.com' })).status).toBe(404);
    expect((await recovers(() => activate(102), 10_000)).status).toBe(404);
  });

  it('limits activations per address on the edge, and per public key and address on the public API, and recovers', async () => {
    const caller = from('127.0.0.9');
    const refused = await spendUntilRefused(RATE_LIMITS.activationAddress, () => caller.post('/v1/licenses/activate', { license_key: unknownKey(), domain: 'a.example' }), 404);
    expect([refused.status, refused.headers['retry-after']]).toEqual([429, '1']);
    expect((await recovers(() => caller.post('/v1/licenses/activate', { license_key: unknownKey(), domain: 'a.example' }), 5_000)).status).toBe(404);

    const publicCaller = from('127.0.0.10');
    const [publicKey, otherPublicKey] = [unknownPublicKey(), unknownPublicKey()];
    const activatePublic = (pk: string) => publicCaller.post('/public/v1/licenses/activate', { public_key: pk, license_key: unknownKey(), domain: 'a.example' });
    expect((await spendUntilRefused(RATE_LIMITS.activationAddress, () => activatePublic(publicKey), 404)).status).toBe(429);
    expect((await activatePublic(otherPublicKey)).status).toBe(404);
  });

  it('limits public validate and check per public key and address, answering validate in its own form', async () => {
    const caller = from('127.0.0.11');
    const publicKey = unknownPublicKey();
    const validate = () => caller.post('/public/v1/licenses/validate', { public_key: publicKey, license_key: unknownKey() });
    // The first read of the bucket is a check: both take from it.
    expect((await caller.post('/public/v1/licenses/check', { public_key: publicKey, license_key: unknownKey(), domain: 'a.example' })).status).toBe(404);
    const refused = await spendUntilRefused({ ...RATE_LIMITS.publicReads, capacity: RATE_LIMITS.publicReads.capacity - 1 }, validate, 404);
    expect([refused.status, refused.body]).toEqual([429, { valid: false, error: 'Too many requests' }]);
    expect(refused.headers['retry-after']).toBe('1');
    expect((await recovers(validate, 5_000)).status).toBe(404);
  });

  it('limits checkouts per public key and address, and public plan lists as public reads', async () => {
    const caller = from('127.0.0.12');
    const publicKey = unknownPublicKey();
    let checkouts = 0;
    // Query and path forms alike take from the one bucket.
    const checkout = () =>
      caller.get(checkouts++ % 2 ? `/public/v1/checkout?public_key=${publicKey}&plan=pro` : `/public/v1/checkout/plan_${randomBase32(15)}?public_key=${publicKey}`);
    const refused = await spendUntilRefused(RATE_LIMITS.checkout, checkout, 404);
    expect([refused.status, refused.body]).toEqual([429, { error: 'Too many requests' }]);
    expect((await caller.get(`/public/v1/checkout?public_key=${unknownPublicKey()}&plan=pro`)).status).toBe(404);
    expect((await spendUntilRefused(RATE_LIMITS.publicReads, () => caller.get(`/public/v1/plans?public_key=${publicKey}`), 404)).status).toBe(429);
  });

  it('limits portal calls per API key, not per vendor', async () => {
    const vendor = new FrontDoorClient(stack.url);
    expect((await vendor.post('/api/auth/register', { email: email(), password })).status).toBe(201);
    const [first, second] = [(await vendor.post('/api/api-keys', { name: 'one' })).body.key, (await vendor.post('/api/api-keys', { name: 'two' })).body.key];
    const overview = (key: string) =>
      fetch(`${stack.url}/v1/portal/overview?email=someone@example.com`, { headers: { authorization: `Bearer ${key}`, ...throughFrontDoor('127.0.0.1:443') } }).then(async (res) => ({
        status: res.status,
        retryAfter: res.headers.get('retry-after'),
        body: await res.json(),
      }));
    const refused = await spendUntilRefused(RATE_LIMITS.portal, () => overview(first), 200);
    expect([refused.status, refused.body, refused.retryAfter]).toEqual([429, { error: 'Too many requests' }, '1']);
    expect((await overview(second)).status).toBe(200);
    expect((await recovers(() => overview(first), 5_000)).status).toBe(200);
  });

  it('limits hosted portal sign-ins per address, and per e-mail from any address (DECISIONS §25)', async () => {
    const vendor = new FrontDoorClient(stack.url);
    expect((await vendor.post('/api/auth/register', { email: email(), password })).status).toBe(201);
    const product = (await vendor.post('/api/products', { name: 'Limited Plugin', productType: 'plugin' })).body;
    expect((await vendor.put('/api/portal-settings', { enabled: true })).status).toBe(200);
    const signIn = (address: string, buyer: string, publicKey = product.public_key as string) =>
      from(address).post('/public/v1/portal/sign-in', { email: buyer, public_key: publicKey });
    const message = { error: 'Too many sign-in requests; try again later' };
    // The address's bucket is taken before the key is looked up: unknown keys spend it too.
    const byAddress = await spendUntilRefused(RATE_LIMITS.portalSignInAddress, () => signIn('127.0.0.40', email(), unknownPublicKey()), 404);
    expect([byAddress.status, byAddress.body]).toEqual([429, message]);
    expect((await signIn('127.0.0.41', email())).status).toBe(202);
    // One e-mail, asked for from ever new addresses.
    const buyer = email();
    let n = 0;
    const byEmail = await spendUntilRefused(RATE_LIMITS.portalSignInEmail, () => signIn(`127.0.1.${++n}`, buyer), 202);
    expect([byEmail.status, byEmail.body]).toEqual([429, message]);
    expect((await signIn(`127.0.1.${++n}`, email())).status).toBe(202);
  });

  it('limits edge validate and update check per address in one bucket, answering validate in its own form', async () => {
    const caller = from('127.0.0.21');
    // An update check takes from the same bucket as validate.
    expect((await caller.get(`/v1/wp/update-check?slug=no-such-${randomBase32(6)}&license_key=${unknownKey()}&version=1.0.0`)).status).toBe(404);
    const validate = () => caller.post('/v1/licenses/validate', { license_key: unknownKey() });
    const refused = await spendUntilRefused({ ...RATE_LIMITS.edgeReads, capacity: RATE_LIMITS.edgeReads.capacity - 1 }, validate, 404);
    expect([refused.status, refused.body]).toEqual([429, { valid: false, error: 'Too many requests' }]);
    expect(refused.headers['retry-after']).toBe('1');
    // The update check meets the same empty bucket. A token comes back every 200 ms: on a slow machine the check may
    // take one, so the bucket is emptied again (by validate) and the check asked once more.
    const check = async () => caller.get(`/v1/wp/update-check?slug=acme&license_key=${unknownKey()}&version=1.0.0`);
    let checked = await check();
    for (let tries = 0; checked.status !== 429 && tries < 3; tries++) {
      while ((await validate()).status !== 429);
      checked = await check();
    }
    expect([checked.status, checked.body]).toEqual([429, { error: 'Too many requests' }]);
    // Another address is another caller.
    expect((await from('127.0.0.22').post('/v1/licenses/validate', { license_key: unknownKey() })).status).toBe(404);
    expect((await recovers(validate, 5_000)).status).toBe(404);
  }, 120_000); // Some 300 requests, one after another.

  it('limits edge downloads per address', async () => {
    const caller = from('127.0.0.23');
    const download = () => caller.get(`/v1/download/rel_${randomBase32(15)}?license_key=${encodeURIComponent(unknownKey())}`);
    const refused = await spendUntilRefused(RATE_LIMITS.downloads, download, 403);
    expect([refused.status, refused.body]).toEqual([429, { error: 'Too many requests' }]);
    // Until the next token: at most one refill interval (5 s).
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(5);
    expect((await from('127.0.0.24').get(`/v1/download/rel_${randomBase32(15)}?license_key=${encodeURIComponent(unknownKey())}`)).status).toBe(403);
  });

  it('counts every IPv6 address of one /64 as one caller, and another /64 apart', { timeout: 120_000 }, async () => {
    // Each request from an address of its own in 2001:db8:64:1::/64: to the limits, one caller all the same.
    let host = 0;
    const inNetwork = (network: string) => from(`${network}:${(++host).toString(16)}:0:0:1`);
    await spend(RATE_LIMITS.registerAddress.capacity, () => inNetwork('2001:db8:64:1').post('/api/auth/register', { email: email(), password }), 201);
    const refused = await inNetwork('2001:db8:64:1').post('/api/auth/register', { email: email(), password });
    expect([refused.status, refused.body]).toEqual([429, { error: 'Too many registrations from this address; try again later' }]);
    expect((await inNetwork('2001:db8:64:2').post('/api/auth/register', { email: email(), password })).status).toBe(201);

    const activate = () => inNetwork('2001:db8:64:3').post('/v1/licenses/activate', { license_key: unknownKey(), domain: 'a.example' });
    expect((await spendUntilRefused(RATE_LIMITS.activationAddress, activate, 404)).status).toBe(429);
    const publicKey = unknownPublicKey();
    const checkout = () => inNetwork('2001:db8:64:4').get(`/public/v1/checkout?public_key=${publicKey}&plan=pro`);
    expect((await spendUntilRefused(RATE_LIMITS.checkout, checkout, 404)).status).toBe(429);
    const download = () => inNetwork('2001:db8:64:5').get(`/v1/download/rel_${randomBase32(15)}?license_key=${encodeURIComponent(unknownKey())}`);
    expect((await spendUntilRefused(RATE_LIMITS.downloads, download, 403)).status).toBe(429);
  });

  it('limits sign-in starts per address: each keeps a state item for 10 minutes', async () => {
    const caller = from('127.0.0.14');
    const refused = await spendUntilRefused(RATE_LIMITS.oauthStart, () => caller.get('/api/oauth/github'), 302);
    expect([refused.status, refused.body]).toEqual([429, { error: 'Too many sign-in attempts; try again later' }]);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await from('127.0.0.15').get('/api/oauth/github')).status).toBe(302);
  });

  it('limits the verification e-mails an account asks for again', async () => {
    const vendor = new FrontDoorClient(stack.url);
    expect((await vendor.post('/api/auth/register', { email: email(), password })).status).toBe(201);
    const refused = await spendUntilRefused(RATE_LIMITS.verificationResend, () => vendor.post('/api/auth/verify-email/resend'), 202);
    expect([refused.status, refused.body]).toEqual([429, { error: 'Too many verification e-mails; try again later' }]);
    expect(refused.headers.get('retry-after')).toBe('300');
  });
});
