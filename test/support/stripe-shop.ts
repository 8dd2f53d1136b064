import type Stripe from 'stripe';
import { expect, inject } from 'vitest';
import { Client, newTenant } from './client.js';
import { fakeStripeClient, stripeTestKey } from './fake-stripe.js';
import { deliver } from './stripe-events.js';
import { paidSession, stripeId, stripeInvoice, stripeSubscription, unixNow } from './stripe-objects.js';

/** A vendor's shop with Stripe connected, and checkouts paid through it as Stripe would report them (fake Stripe). */
const fake = fakeStripeClient(inject('stripeUrl'));
const buyer = new Client();
const DAY = 24 * 3600;

export async function created(res: Promise<{ status: number; body: any; text: string }>) {
  const { status, body, text } = await res;
  expect(status, text).toBe(201);
  return body;
}

/** A vendor with a product, a yearly and a lifetime plan, and Stripe connected with a webhook secret of its own. */
export async function shop() {
  const tenant = await newTenant();
  // Slugs are unique across the deployment, and a generated one has 20 tries: this file makes more shops than that.
  const product = await created(tenant.post('/api/products', { name: 'Hook Plugin', productType: 'plugin', slug: stripeId('hook').replace('_', '-') }));
  const plans = `/api/products/${product.id}/plans`;
  const yearly = await created(tenant.post(plans, { name: 'Pro', slug: 'pro', billingCycle: 'yearly', price: 49.5, currency: 'usd', siteLimit: 5 }));
  const lifetime = await created(tenant.post(plans, { name: 'Forever', billingCycle: 'lifetime', price: 199, currency: 'usd', siteLimit: 3 }));
  const secretKey = stripeTestKey();
  const webhookSecret = `whsec_${Buffer.from(stripeId('secret')).toString('base64')}`;
  const connected = await tenant.put('/api/payment-provider', { provider: 'stripe', secretKey, webhookSecret });
  expect(connected.status, connected.text).toBe(200);
  const path = new URL(connected.body.webhookUrl as string).pathname;
  expect(path).toBe(`/v1/webhooks/stripe/${tenant.userId}`);
  const send = (event: Stripe.Event, options?: Parameters<typeof deliver>[3]) => deliver(path, event, webhookSecret, options);
  return { tenant, product, plans: { yearly, lifetime }, secretKey, webhookSecret, path, send, publicKey: product.public_key as string };
}
export type Shop = Awaited<ReturnType<typeof shop>>;

/** A checkout through the public API (so its session item exists), and the session Stripe would report completed. */
export async function paidCheckout(s: Shop, plan: 'yearly' | 'lifetime', email = 'buyer@example.com') {
  const returnUrl = 'https://app.example.com/thanks';
  const query = new URLSearchParams({ public_key: s.publicKey, return_url: returnUrl }).toString();
  const res = await buyer.get(`/public/v1/checkout/${s.plans[plan].id}?${query}`, { origin: null });
  expect(res.status, res.text).toBe(303);
  const sessionId = /\/(cs_test_\w+)$/.exec(res.headers.get('location')!)![1]!;
  const opened = (await fake.session(sessionId))!.session;
  const recurring = plan === 'yearly';
  const started = recurring ? stripeSubscription({ start: unixNow(), end: unixNow() + 365 * DAY, metadata: opened.metadata ?? {} }) : undefined;
  // A subscription's checkout makes its first invoice, with a document: the subscription's latest.
  const invoice = started && (await fake.putInvoice(s.secretKey, stripeInvoice({ subscription: started.id, billingReason: 'subscription_create', start: unixNow(), end: unixNow() + 365 * DAY })));
  const subscription = started && { ...started, latest_invoice: invoice!.id };
  if (subscription) await fake.putSubscription(s.secretKey, subscription);
  const session = recurring
    ? paidSession(opened, { email, name: 'Jane Buyer', amountTotal: 4950, invoice: invoice!.id, subscription: subscription!.id })
    : paidSession(opened, { email, name: 'Jane Buyer', amountTotal: 19900, payment_intent: stripeId('pi') });
  return { session, subscription, sessionId, returnUrl };
}

