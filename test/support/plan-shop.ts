import type Stripe from 'stripe';
import { expect, inject } from 'vitest';
import { Client, newTenant } from './client.js';
import { fakeStripeClient, stripeTestKey } from './fake-stripe.js';
import { deliver, stripeEvent } from './stripe-events.js';
import { renewedSubscription } from './stripe-lifecycle-objects.js';
import { paidSession, stripeId, stripeInvoice, stripeSubscription, unixNow } from './stripe-objects.js';

/**
 * A vendor selling monthly and yearly plans through the fake Stripe, for the subscription lifecycle (DECISIONS §15):
 * checkouts paid as Stripe reports them, their subscriptions put in place at the fake, and plan changes.
 */
export const fake = fakeStripeClient(inject('stripeUrl'));
export const buyer = new Client();
export const DAY = 24 * 3600;

type Answer = { status: number; body: any; text: string };

export async function body(res: Promise<Answer>, status = 200) {
  const { status: actual, body: value, text } = await res;
  expect(actual, text).toBe(status);
  return value;
}

/** A vendor with a product, monthly plans of 3 and 10 seats, a yearly plan, and Stripe connected. */
export async function shop(planFields: Record<string, unknown> = {}) {
  const tenant = await newTenant();
  const product = await body(tenant.post('/api/products', { name: 'Tier Plugin', productType: 'plugin', slug: stripeId('tier').replace('_', '-') }), 201);
  const plans = `/api/products/${product.id}/plans`;
  const basic = await body(tenant.post(plans, { name: 'Basic', slug: 'basic', billingCycle: 'monthly', price: 10, currency: 'usd', siteLimit: 3, ...planFields }), 201);
  const agency = await body(tenant.post(plans, { name: 'Agency', slug: 'agency', billingCycle: 'monthly', price: 30, currency: 'usd', siteLimit: 10 }), 201);
  const yearly = await body(tenant.post(plans, { name: 'Basic yearly', slug: 'basic-yearly', billingCycle: 'yearly', price: 100, currency: 'usd', siteLimit: 3 }), 201);
  const secretKey = stripeTestKey();
  const webhookSecret = `whsec_${Buffer.from(stripeId('secret')).toString('base64')}`;
  const connected = await body(tenant.put('/api/payment-provider', { provider: 'stripe', secretKey, webhookSecret }));
  const path = new URL(connected.webhookUrl as string).pathname;
  const send = async (event: Stripe.Event) => {
    // Every event twice: Stripe redelivers, and the second changes nothing.
    const first = await deliver(path, event, webhookSecret);
    expect(first.status, first.text).toBe(200);
    expect((await deliver(path, event, webhookSecret)).body).toMatchObject({ outcome: 'duplicate' });
    return first.body;
  };
  const addPlan = (fields: Record<string, unknown>) => body(tenant.post(plans, { billingCycle: 'monthly', currency: 'usd', ...fields }), 201);
  return { tenant, product, plans: { basic, agency, yearly }, addPlan, secretKey, send, publicKey: product.public_key as string };
}
export type Shop = Awaited<ReturnType<typeof shop>>;

/** Checkout of a plan through the public API; the session's id at the fake Stripe. */
export async function openCheckout(s: Shop, planId: string, query: Record<string, string> = {}) {
  const res = await buyer.get(`/public/v1/checkout/${planId}?${new URLSearchParams({ public_key: s.publicKey, ...query })}`, { origin: null });
  return { res, sessionId: /\/(cs_test_\w+)$/.exec(res.headers.get('location') ?? '')?.[1] };
}

/**
 * A paid checkout of a monthly plan (Basic unless `plan` says) by `email`: its Stripe subscription put in place at the
 * fake, `checkout.session.completed` sent; the license and our subscription it made.
 */
export async function subscribe(s: Shop, email: string, options: { trialDays?: number; plan?: { id: string; price: number } } = {}) {
  const { trialDays = 0, plan = s.plans.basic } = options;
  const { res, sessionId } = await openCheckout(s, plan.id);
  expect(res.status, res.text).toBe(303);
  const opened = (await fake.session(sessionId!))!;
  const start = unixNow();
  const end = start + (trialDays || 30) * DAY;
  const amount = plan.price * 100;
  const started = stripeSubscription({ start, end, amount, interval: 'month', metadata: opened.session.metadata ?? {}, status: trialDays ? 'trialing' : 'active' });
  // Its first invoice, as Stripe makes it at checkout: the subscription's latest, with its document.
  const invoice = await fake.putInvoice(s.secretKey, stripeInvoice({ subscription: started.id, billingReason: 'subscription_create', start, end, amountPaid: trialDays ? 0 : amount }));
  const subscription: Stripe.Subscription = { ...started, latest_invoice: invoice.id, ...(trialDays && { trial_start: start, trial_end: end }) };
  await fake.putSubscription(s.secretKey, subscription);
  await s.send(stripeEvent('checkout.session.completed', paidSession(opened.session, { email, amountTotal: trialDays ? 0 : amount, invoice: invoice.id, subscription: subscription.id })));
  const licenses = (await body(s.tenant.get(`/api/licenses?search=${encodeURIComponent(email.toLowerCase())}`))).items as any[];
  const customer = await body(s.tenant.get(`/api/customers/${licenses[0].customerId}`));
  return { opened, subscription, license: licenses[0], subscriptionId: customer.subscriptions[0].id as string };
}

export async function activate(licenseKey: string, domains: string[]) {
  for (const domain of domains) await body(buyer.post('/v1/licenses/activate', { license_key: licenseKey, domain }, { origin: null }));
}

/** The invoices Stripe made for a subscription's changes, oldest first: all but its checkout's first. */
export const changeInvoices = async (s: Shop, stripeSubscriptionId: string) =>
  (await fake.invoices(s.secretKey, stripeSubscriptionId)).filter((invoice) => invoice.billing_reason !== 'subscription_create');

export const licenseOf = async (s: Shop, id: string) => body(s.tenant.get(`/api/licenses/${id}`));

export const changePlan = (s: Shop, subscriptionId: string, planId: string) => s.tenant.post(`/api/subscriptions/${subscriptionId}/change-plan`, { planId });

/** Stripe's `customer.subscription.updated` of the subscription as the fake holds it now. */
export async function tellSubscription(s: Shop, stripeSubscriptionId: string) {
  await s.send(stripeEvent('customer.subscription.updated', (await fake.subscription(stripeSubscriptionId))!));
}

/** Stripe's `customer.subscription.updated` of the subscription's next period (its renewal), as the fake holds it now. */
export async function tellRenewal(s: Shop, stripeSubscriptionId: string) {
  const current = (await fake.subscription(stripeSubscriptionId))!;
  const end = current.items.data[0]!.current_period_end;
  await s.send(stripeEvent('customer.subscription.updated', renewedSubscription(current, end, end + 30 * DAY)));
}
