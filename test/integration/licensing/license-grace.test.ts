import type Stripe from 'stripe';
import { describe, expect, inject, it } from 'vitest';
import { sweepExpiredLicenses } from '../../../shared/licensing/licenses/expiry-sweep.js';
import { Client, newTenant } from '../../support/client.js';
import { fakeStripeClient, stripeTestKey } from '../../support/fake-stripe.js';
import { deliver, stripeEvent } from '../../support/stripe-events.js';
import { paidSession, stripeId, stripeInvoice, stripeSubscription, unixNow } from '../../support/stripe-objects.js';
import { localData } from '../../support/table.js';
import { startReceiver } from '../../support/webhook-receiver.js';

const fake = fakeStripeClient(inject('stripeUrl'));
const DAY = 24 * 3600;
const GRACE_DAYS = 7;

/**
 * A vendor selling a yearly plan through Stripe, and a buyer whose subscription's period ends `periodEnd` (unix s):
 * the checkout's event has issued the license, which expires then.
 */
async function subscribedLicense(periodEnd: number) {
  const tenant = await newTenant();
  const product = (await tenant.post('/api/products', { name: 'Grace Plugin', productType: 'plugin', slug: stripeId('grace').replace('_', '-') })).body;
  const plan = (await tenant.post(`/api/products/${product.id}/plans`, { name: 'Pro', billingCycle: 'yearly', price: 49.5, currency: 'usd', siteLimit: 2 })).body;
  const secretKey = stripeTestKey();
  const webhookSecret = `whsec_${Buffer.from(stripeId('secret')).toString('base64')}`;
  const connected = await tenant.put('/api/payment-provider', { provider: 'stripe', secretKey, webhookSecret });
  expect(connected.status, connected.text).toBe(200);
  const path = new URL(connected.body.webhookUrl as string).pathname;
  const send = (event: Stripe.Event) => deliver(path, event, webhookSecret);
  const query = new URLSearchParams({ public_key: product.public_key, return_url: 'https://app.example.com/thanks' }).toString();
  const opened = await new Client().get(`/public/v1/checkout/${plan.id}?${query}`, { origin: null });
  expect(opened.status, opened.text).toBe(303);
  const session = (await fake.session(/\/(cs_test_\w+)$/.exec(opened.headers.get('location')!)![1]!))!.session;
  const subscription = stripeSubscription({ start: periodEnd - 365 * DAY, end: periodEnd, metadata: session.metadata ?? {} });
  await fake.putSubscription(secretKey, subscription);
  const paid = paidSession(session, { email: 'payer@example.com', amountTotal: 4950, invoice: stripeId('in'), subscription: subscription.id });
  expect((await send(stripeEvent('checkout.session.completed', paid))).status).toBe(200);
  const [license] = (await tenant.get('/api/licenses')).body.items;
  return { tenant, send, subscription, license, periodEnd };
}

/** The renewal invoice of the period that ends `periodEnd`: its own period is the one renewed, its line the next. */
function renewalInvoice(subscription: string, periodEnd: number, paid: boolean): Stripe.Invoice {
  const invoice = stripeInvoice({ subscription, billingReason: 'subscription_cycle', start: periodEnd, end: periodEnd + 365 * DAY });
  return paid ? invoice : { ...invoice, status: 'open', amount_paid: 0, amount_remaining: invoice.amount_due, status_transitions: { ...invoice.status_transitions, paid_at: null } };
}

const validate = (licenseKey: string) => new Client().post('/v1/licenses/validate', { license_key: licenseKey }, { origin: null });
const iso = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString();

describe('grace after a failed renewal payment (DECISIONS §15)', () => {
  it('keeps the license valid in grace until the period end + graceDays, once however often Stripe delivers, then the sweep expires it', async () => {
    const receiver = await startReceiver();
    try {
      // The period ended a week ago, less a minute: the grace runs one more minute.
      const { tenant, send, subscription, license, periodEnd } = await subscribedLicense(unixNow() - GRACE_DAYS * DAY + 60);
      expect((await tenant.post('/api/webhooks', { name: 'Grace', url: receiver.url, events: ['subscription.past_due', 'license.expired'] })).status).toBe(201);
      expect((await validate(license.licenseKey)).body).toMatchObject({ valid: false });

      const failed = stripeEvent('invoice.payment_failed', renewalInvoice(subscription.id, periodEnd, false));
      const delivered = await Promise.all([send(failed), send(failed), send(failed)]);
      expect(delivered.map((res) => res.status).sort()).toEqual(expect.arrayContaining([200]));
      for (const res of delivered) expect([200, 409]).toContain(res.status);
      expect((await send(failed)).body).toMatchObject({ outcome: 'duplicate' });
      // Stripe retries the card: another event of the same invoice finds the grace given.
      expect((await send(stripeEvent('invoice.payment_failed', renewalInvoice(subscription.id, periodEnd, false)))).body).toMatchObject({ outcome: 'ignored' });

      const graceUntil = iso(periodEnd + GRACE_DAYS * DAY);
      const inGrace = (await tenant.get(`/api/licenses/${license.id}`)).body;
      expect(inGrace).toMatchObject({ status: 'active', expiresAt: iso(periodEnd), graceUntil });
      expect((await validate(license.licenseKey)).body).toMatchObject({ valid: true, license: { status: 'active', inGrace: true, expiresAt: iso(periodEnd) } });
      const customer = (await tenant.get(`/api/customers/${license.customerId}`)).body;
      expect(customer.subscriptions[0]).toMatchObject({ status: 'past_due' });

      // The sweep leaves it in grace, and expires it at the grace's end.
      const data = localData('expirySweep');
      await sweepExpiredLicenses({ data, clock: { now: () => new Date() } });
      expect((await tenant.get(`/api/licenses/${license.id}`)).body.status).toBe('active');
      await sweepExpiredLicenses({ data, clock: { now: () => new Date(Date.parse(graceUntil) + 1) } });
      expect((await tenant.get(`/api/licenses/${license.id}`)).body.status).toBe('expired');
      expect((await validate(license.licenseKey)).body).toMatchObject({ valid: false });

      await receiver.waitFor(2);
      await expect.poll(() => receiver.requests.length, { timeout: 1500 }).toBe(2);
      expect(receiver.requests.map((request) => request.json.type).sort()).toEqual(['license.expired', 'subscription.past_due']);
    } finally {
      await receiver.close();
    }
  });

  it('ends the grace on the next paid invoice: the license renews to the new period and validates without inGrace', async () => {
    const { tenant, send, subscription, license, periodEnd } = await subscribedLicense(unixNow() - DAY);
    expect((await send(stripeEvent('invoice.payment_failed', renewalInvoice(subscription.id, periodEnd, false)))).body).toMatchObject({ outcome: 'processed' });
    expect((await validate(license.licenseKey)).body.license).toMatchObject({ inGrace: true });

    const paid = stripeEvent('invoice.paid', renewalInvoice(subscription.id, periodEnd, true));
    expect((await send(paid)).body).toMatchObject({ outcome: 'processed' });
    expect((await send(paid)).body).toMatchObject({ outcome: 'duplicate' });
    expect((await tenant.get(`/api/licenses/${license.id}`)).body).toMatchObject({ status: 'active', expiresAt: iso(periodEnd + 365 * DAY), graceUntil: null });
    expect((await validate(license.licenseKey)).body).toMatchObject({ valid: true, license: { inGrace: false, expiresAt: iso(periodEnd + 365 * DAY) } });
    // A failure delivered late, of the period already paid for, gives no grace.
    expect((await send(stripeEvent('invoice.payment_failed', renewalInvoice(subscription.id, periodEnd, false)))).body).toMatchObject({ outcome: 'ignored' });
    expect((await tenant.get(`/api/licenses/${license.id}`)).body.graceUntil).toBeNull();
  });
});
