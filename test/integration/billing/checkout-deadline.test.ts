import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startLocalStack, type LocalStack } from '../../../infra/local/stack.js';
import { SURFACE_TIMEOUT_SECONDS } from '../../../infra/routes.js';
import { Client, uniqueEmail } from '../../support/client.js';
import { fakeStripeClient, startFakeStripe, stripeTestKey } from '../../support/fake-stripe.js';
import { DASHBOARD_URL, TEST_PASSWORD_HASH_COST } from '../../support/global-setup.js';
import { verifyAddress } from '../../support/mail.js';

/**
 * A Stripe that never answers, on a stack of this file's own whose functions have half their AWS time
 * (`timeoutScale`): a checkout's Stripe call, retried once at 3 s an attempt, would outlast the function; the
 * request's deadline ends it first, in the service's own 503 with the public API's CORS headers.
 */
const TIMEOUT_SCALE = 0.5;
let stack: LocalStack;
let stripe: Awaited<ReturnType<typeof startFakeStripe>>;
beforeAll(async () => {
  stripe = await startFakeStripe();
  stack = await startLocalStack({
    port: 0,
    dataDir: ':memory:',
    lightJvm: true,
    timeoutScale: TIMEOUT_SCALE,
    env: { DASHBOARD_URL, STRIPE_API_URL: stripe.url, PASSWORD_HASH_COST: TEST_PASSWORD_HASH_COST, RATE_LIMIT_SCALE: '1000' },
  });
}, 120_000);
afterAll(async () => {
  await stack?.stop();
  await stripe?.close();
});

async function created(res: Promise<{ status: number; body: any; text: string }>) {
  const { status, body, text } = await res;
  expect(status, text).toBe(201);
  return body;
}

describe('a checkout while Stripe does not answer', () => {
  it('ends in the service’s own 503 with CORS headers within the function’s time', async () => {
    const vendor = new Client(stack.url);
    const email = uniqueEmail();
    expect((await vendor.post('/api/auth/register', { email, password: 'correct horse battery', name: 'Dev' })).status).toBe(201);
    // Connecting a payment provider needs the address verified (DECISIONS §20).
    await verifyAddress(email, stack.url);
    const product = await created(vendor.post('/api/products', { name: 'Slow Plugin', productType: 'plugin' }));
    await created(vendor.post(`/api/products/${product.id}/plans`, { name: 'Pro', slug: 'pro', billingCycle: 'yearly', price: 49, currency: 'usd', siteLimit: 1 }));
    const secretKey = stripeTestKey();
    const connected = await vendor.put('/api/payment-provider', { provider: 'stripe', secretKey, webhookSecret: `whsec_${Buffer.from('slow-stripe-test-secret').toString('base64')}` });
    expect(connected.status, connected.text).toBe(200);
    await fakeStripeClient(stripe.url).setOutage(secretKey, 'stalled');

    // The service says why it answered 503: captured here, so that the test's output shows only what failed.
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const started = Date.now();
    const res = await new Client(stack.url).get(`/public/v1/checkout?public_key=${product.public_key}&plan=pro`, { origin: 'https://shop.example' });
    const elapsed = Date.now() - started;
    expect([res.status, res.body]).toEqual([503, { error: 'Service temporarily unavailable' }]);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('retry-after')).toBe('1');
    // Within the function's time, and by the deadline's doing, which says so: Middy's own last resort would answer a
    // 503 too, but only 5 ms before the time is up, too late for a Lambda to hand its answer over (without the
    // deadline this took 5,005 ms of 5,000, and logged nothing).
    expect(elapsed).toBeLessThan(SURFACE_TIMEOUT_SECONDS.public * TIMEOUT_SCALE * 1000);
    expect(warn.mock.calls.map(([line]) => String(line))).toEqual([expect.stringContaining('Request ran out of time for its calls')]);
  }, 30_000);
});
