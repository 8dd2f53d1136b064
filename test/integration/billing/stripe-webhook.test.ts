import { describe, expect, inject, it } from 'vitest';
import { Client, newTenant } from '../../support/client.js';
import { fakeStripeClient } from '../../support/fake-stripe.js';
import { created, paidCheckout, shop, type Shop } from '../../support/stripe-shop.js';
import { localData } from '../../support/table.js';
import { startReceiver } from '../../support/webhook-receiver.js';
import { EVENT_TYPES } from '../../../shared/messaging/events/event-types.js';
import { emailsOnceSettled } from '../../support/mail.js';
import { deliver, stripeEvent } from '../../support/stripe-events.js';
import { refundedCharge, stripeCharge, stripeId, stripeInvoice, stripeInvoicePayment, stripeSubscription, unixNow } from '../../support/stripe-objects.js';

const fake = fakeStripeClient(inject('stripeUrl'));
const buyer = new Client();
const DAY = 24 * 3600;

/** The vendor's licenses, and its one customer with payments and subscriptions. */
async function records(s: Shop) {
  const licenses = (await s.tenant.get('/api/licenses')).body.items as any[];
  const customers = (await s.tenant.get('/api/customers')).body.items as any[];
  const customer = customers.length === 1 ? (await s.tenant.get(`/api/customers/${customers[0].id}`)).body : undefined;
  return { licenses, customers, customer };
}

describe('Stripe webhook: verification', () => {
  it('refuses a bad, missing or stale signature with 400 and changes nothing; the same event later still applies', async () => {
    const s = await shop();
    const { session } = await paidCheckout(s, 'lifetime');
    const event = stripeEvent('checkout.session.completed', session);
    const refusals = [
      await s.send(event, { signature: 't=1,v1=deadbeef' }),
      await s.send(event, { signature: null }),
      await s.send(event, { timestamp: unixNow() - 301 }),
      await deliver(s.path, event, 'whsec_c29tZW9uZSBlbHNl'),
    ];
    for (const res of refusals) expect([res.status, res.body]).toEqual([400, { error: 'Invalid Stripe signature' }]);
    expect((await records(s)).licenses).toEqual([]);

    const res = await s.send(event);
    expect([res.status, res.body]).toEqual([200, { received: true, outcome: 'processed' }]);
    expect((await records(s)).licenses).toHaveLength(1);
  });

  it('refuses an event signed for one vendor at another vendor\'s URL (400), and answers 404 for an unknown or malformed user id', async () => {
    const [a, b] = await Promise.all([shop(), shop()]);
    const { session } = await paidCheckout(a, 'lifetime');
    const event = stripeEvent('checkout.session.completed', session);
    const crossed = await deliver(b.path, event, a.webhookSecret);
    expect([crossed.status, crossed.body]).toEqual([400, { error: 'Invalid Stripe signature' }]);
    const unconnected = await newTenant();
    for (const path of [`/v1/webhooks/stripe/${unconnected.userId}`, '/v1/webhooks/stripe/usr_aaaaaaaaaaaaaaaaaaaaaaaa', '/v1/webhooks/stripe/nope']) {
      expect((await deliver(path, event, a.webhookSecret)).status).toBe(404);
    }
    expect((await records(a)).licenses).toEqual([]);
    expect((await records(b)).licenses).toEqual([]);
  });

  it('acknowledges an event type it does not handle, and ignores a session naming another vendor', async () => {
    const [s, other] = await Promise.all([shop(), shop()]);
    const unhandled = await s.send(stripeEvent('charge.succeeded', stripeCharge({ amount: 19900, payment_intent: stripeId('pi') })));
    expect([unhandled.status, unhandled.body]).toEqual([200, { received: true, outcome: 'ignored' }]);
    const { session } = await paidCheckout(other, 'lifetime');
    const foreign = await s.send(stripeEvent('checkout.session.completed', session));
    expect([foreign.status, foreign.body]).toEqual([200, { received: true, outcome: 'ignored' }]);
    const forged = await s.send(stripeEvent('checkout.session.completed', { ...session, metadata: { ...session.metadata, developer_id: s.tenant.userId } }));
    expect([forged.status, forged.body]).toEqual([200, { received: true, outcome: 'ignored' }]);
    expect((await records(s)).licenses).toEqual([]);
    expect((await records(other)).licenses).toEqual([]);
  });
});

describe('Stripe webhook: each event id once', () => {
  /** A claim left by a delivery of `event` still running (lease ahead) or crashed (lease run out). */
  const claim = (s: Shop, event: { id: string; type: string }, leaseUntil: number) =>
    localData().entities.stripeEvent
      .put({ tenantId: s.tenant.userId, stripeEventId: event.id, type: event.type, state: 'processing', claimToken: 'other', leaseUntil, updatedAt: new Date().toISOString(), ttl: unixNow() + DAY })
      .go();

  it('answers 409 while another delivery holds the event, and lets a retry take over a claim whose lease ran out', async () => {
    const s = await shop();
    const { session } = await paidCheckout(s, 'lifetime');
    const event = stripeEvent('checkout.session.completed', session);
    await claim(s, event, unixNow() + 60);
    expect(await s.send(event)).toMatchObject({ status: 409, body: { error: 'This event is being processed; retry later' } });
    expect((await records(s)).licenses).toEqual([]);

    await claim(s, event, unixNow() - 1);
    expect(await s.send(event)).toMatchObject({ status: 200, body: { outcome: 'processed' } });
    expect(await s.send(event)).toMatchObject({ status: 200, body: { outcome: 'duplicate' } });
    expect((await records(s)).licenses).toHaveLength(1);
  });
});

describe('Stripe webhook: checkout.session.completed', () => {
  it('issues exactly one license, customer, payment, subscription and e-mail when the event arrives 5 times at once and 5 times later', async () => {
    const s = await shop();
    const { session, subscription, sessionId, returnUrl } = await paidCheckout(s, 'yearly');
    const back = await buyer.get(`/public/v1/checkout/return?session_id=${sessionId}`, { origin: null });
    expect(back.headers.get('location')).toBe(`${returnUrl}?svc_pending=1`);

    const event = stripeEvent('checkout.session.completed', session);
    const burst = await Promise.all(Array.from({ length: 5 }, () => s.send(event)));
    for (const res of burst) expect([200, 409]).toContain(res.status);
    expect(burst.filter((res) => res.body.outcome === 'processed')).toHaveLength(1);
    for (let i = 0; i < 5; i++) expect(await s.send(event)).toMatchObject({ status: 200, body: { received: true, outcome: 'duplicate' } });

    const { licenses, customers, customer } = await records(s);
    expect(licenses).toHaveLength(1);
    expect(customers).toHaveLength(1);
    const periodEnd = new Date(subscription!.items.data[0]!.current_period_end * 1000).toISOString();
    expect(licenses[0]).toMatchObject({
      productId: s.product.id,
      planId: s.plans.yearly.id,
      customerEmail: 'buyer@example.com',
      customerName: 'Jane Buyer',
      customerId: customers[0].id,
      status: 'active',
      seats: 5,
      expiresAt: periodEnd,
    });
    expect(customer).toMatchObject({ email: 'buyer@example.com', firstName: 'Jane', lastName: 'Buyer' });
    expect(customer.payments).toEqual([
      // The document of the subscription's first invoice, as Stripe made it at checkout.
      expect.objectContaining({ amount: 49.5, currency: 'USD', status: 'completed', paymentMethod: 'stripe', invoicePdfUrl: expect.stringMatching(/\/_fake\/invoice-pdf\/in_/), productName: 'Hook Plugin' }),
    ]);
    expect(customer.subscriptions).toEqual([
      expect.objectContaining({
        status: 'active',
        planName: 'Pro',
        billingCycle: 'yearly',
        price: 49.5,
        currency: 'USD',
        productName: 'Hook Plugin',
        cancelAtPeriodEnd: false,
        currentPeriodEnd: periodEnd,
      }),
    ]);
    const done = await buyer.get(`/public/v1/checkout/return?session_id=${sessionId}`, { origin: null });
    expect(done.headers.get('location')).toBe(`${returnUrl}?svc_activate=${licenses[0].licenseKey}`);

    const key = licenses[0].licenseKey as string;
    const emails = await emailsOnceSettled((email) => email.text.includes(key), 1);
    expect(emails).toHaveLength(1);
    const [email] = emails;
    expect(email).toMatchObject({ to: ['buyer@example.com'], subject: 'Your Hook Plugin license key' });
    // The vendor's account name signs it (no seller name was given at connect); the address is the configured sender.
    expect(email!.from).toBe(`"Dev" <no-reply@example.com>`);
    const renewal = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(periodEnd));
    for (const part of [email!.text, email!.html]) {
      expect(part).toContain(key);
      expect(part).toContain('Hook Plugin');
      expect(part).toContain('5 sites');
      expect(part).toContain(`Renews on`);
      expect(part).toContain(renewal);
      expect(part).toContain('How to activate');
      expect(part).toContain(s.tenant.email);
    }
  });

  it("answers 502 and issues nothing while Stripe cannot be reached for the subscription; Stripe's next delivery issues it", async () => {
    const s = await shop();
    const { session } = await paidCheckout(s, 'yearly');
    const event = stripeEvent('checkout.session.completed', session);
    await fake.setOutage(s.secretKey, 'error');
    try {
      expect(await s.send(event)).toMatchObject({ status: 502, body: { error: 'Payment provider unavailable' } });
      expect((await records(s)).licenses).toEqual([]);
    } finally {
      await fake.setOutage(s.secretKey, null);
    }
    expect(await s.send(event)).toMatchObject({ status: 200, body: { outcome: 'processed' } });
    expect((await records(s)).licenses).toHaveLength(1);
  });

  it('waits for a delayed payment: an unpaid session changes nothing, its async_payment_succeeded issues the license once', async () => {
    const s = await shop();
    const { session } = await paidCheckout(s, 'lifetime');
    const unpaid = await s.send(stripeEvent('checkout.session.completed', { ...session, payment_status: 'unpaid' }));
    expect(unpaid.body).toMatchObject({ outcome: 'ignored' });
    expect((await records(s)).licenses).toEqual([]);
    expect((await s.send(stripeEvent('checkout.session.async_payment_succeeded', session))).body).toMatchObject({ outcome: 'processed' });
    // Another event of the same session (a different event id) issues nothing more.
    expect((await s.send(stripeEvent('checkout.session.completed', session))).body).toMatchObject({ outcome: 'ignored' });
    const { licenses, customer } = await records(s);
    expect(licenses).toHaveLength(1);
    expect(customer.payments).toHaveLength(1);
  });

  it('issues a lifetime license without expiry, and reuses the customer who already has the e-mail', async () => {
    const s = await shop();
    const existing = await created(s.tenant.post('/api/customers', { email: 'known@example.com', firstName: 'Known' }));
    const { session } = await paidCheckout(s, 'lifetime', 'known@example.com');
    expect((await s.send(stripeEvent('checkout.session.completed', session))).status).toBe(200);
    const { licenses, customers, customer } = await records(s);
    expect(customers.map((c) => c.id)).toEqual([existing.id]);
    expect(licenses).toEqual([expect.objectContaining({ seats: 3, expiresAt: null, planId: s.plans.lifetime.id, customerId: existing.id })]);
    expect(customer.payments).toEqual([expect.objectContaining({ amount: 199, currency: 'USD', status: 'completed' })]);
    expect(customer.subscriptions).toEqual([]);
    const [email] = await emailsOnceSettled((e) => e.text.includes(licenses[0].licenseKey), 1);
    expect(email!.to).toEqual(['known@example.com']);
    expect(email!.text).toContain('Expires: Never (lifetime license)');
  });
});

describe('Stripe webhook: a paid checkout always issues its license', () => {
  it('issues the seats, term and price sold at checkout though the plan was edited after checkout opened', async () => {
    const s = await shop();
    const { session, subscription } = await paidCheckout(s, 'yearly');
    const plan = await s.tenant.put(`/api/products/${s.product.id}/plans/${s.plans.yearly.id}`, { name: 'Pro 2', siteLimit: 1, billingCycle: 'lifetime', price: 99, currency: 'eur' });
    expect(plan.status, plan.text).toBe(200);

    expect(await s.send(stripeEvent('checkout.session.completed', session))).toMatchObject({ status: 200, body: { outcome: 'processed' } });
    const { licenses, customer } = await records(s);
    const periodEnd = new Date(subscription!.items.data[0]!.current_period_end * 1000).toISOString();
    expect(licenses).toEqual([expect.objectContaining({ planId: s.plans.yearly.id, seats: 5, expiresAt: periodEnd })]);
    expect(customer.subscriptions).toEqual([expect.objectContaining({ planName: 'Pro', billingCycle: 'yearly', price: 49.5, currency: 'USD', currentPeriodEnd: periodEnd })]);
    expect(customer.payments).toEqual([expect.objectContaining({ amount: 49.5, currency: 'USD', status: 'completed' })]);
  });

  it('issues the license, e-mails it and sends the buyer back with it though the plan and the product were deleted meanwhile', async () => {
    const s = await shop();
    const { session, sessionId, returnUrl } = await paidCheckout(s, 'lifetime');
    expect((await s.tenant.delete(`/api/products/${s.product.id}/plans/${s.plans.lifetime.id}`)).status).toBe(204);
    expect((await s.tenant.delete(`/api/products/${s.product.id}`)).status).toBe(204);

    expect(await s.send(stripeEvent('checkout.session.completed', session))).toMatchObject({ status: 200, body: { outcome: 'processed' } });
    const { licenses, customer } = await records(s);
    expect(licenses).toEqual([expect.objectContaining({ productId: s.product.id, planId: s.plans.lifetime.id, seats: 3, expiresAt: null })]);
    expect(customer.payments).toEqual([expect.objectContaining({ amount: 199, status: 'completed', productName: 'Hook Plugin' })]);
    const key = licenses[0].licenseKey as string;
    expect(await emailsOnceSettled((email) => email.text.includes(key), 1)).toHaveLength(1);
    const back = await buyer.get(`/public/v1/checkout/return?session_id=${sessionId}`, { origin: null });
    expect(back.headers.get('location')).toBe(`${returnUrl}?svc_activate=${key}`);
  });

  it('issues a session that names its plan by DECISIONS §6 metadata alone (no snapshot) with the plan as it is now', async () => {
    const s = await shop();
    const { session } = await paidCheckout(s, 'lifetime');
    const { developer_id, product_id, plan_id } = session.metadata!;
    const plainMetadata = stripeEvent('checkout.session.completed', { ...session, metadata: { developer_id: developer_id!, product_id: product_id!, plan_id: plan_id! } });
    expect(await s.send(plainMetadata)).toMatchObject({ status: 200, body: { outcome: 'processed' } });
    expect((await records(s)).licenses).toEqual([expect.objectContaining({ planId: s.plans.lifetime.id, seats: 3, expiresAt: null })]);
  });

  it('answers 500 and issues nothing while a paid checkout of this vendor cannot be issued, so that Stripe retries', async () => {
    const s = await shop();
    const { session } = await paidCheckout(s, 'lifetime');
    const notIssued = { status: 500, body: { error: 'License could not be issued for this purchase' } };
    // A session whose metadata names this vendor's product but not what was sold, and whose plan is gone.
    const { developer_id, product_id, plan_id } = session.metadata!;
    expect((await s.tenant.delete(`/api/products/${s.product.id}/plans/${s.plans.lifetime.id}`)).status).toBe(204);
    const withoutTerms = stripeEvent('checkout.session.completed', { ...session, metadata: { developer_id: developer_id!, product_id: product_id!, plan_id: plan_id! } });
    expect(await s.send(withoutTerms)).toMatchObject(notIssued);
    // Not marked processed: Stripe's next delivery of the same event is tried again.
    expect(await s.send(withoutTerms)).toMatchObject(notIssued);
    const withoutEmail = stripeEvent('checkout.session.completed', { ...session, customer_details: null, customer_email: null });
    expect(await s.send(withoutEmail)).toMatchObject(notIssued);
    expect((await records(s)).licenses).toEqual([]);
  });
});

describe('Stripe webhook: charge.refunded', () => {
  it('marks the payment refunded and revokes the license with its activations; a replay changes nothing', async () => {
    const s = await shop();
    const { session } = await paidCheckout(s, 'lifetime');
    expect((await s.send(stripeEvent('checkout.session.completed', session))).status).toBe(200);
    const [license] = (await records(s)).licenses;
    const activated = await buyer.post('/v1/licenses/activate', { license_key: license.licenseKey, domain: 'shop.example.com' }, { origin: null });
    expect(activated.status, activated.text).toBe(200);

    const charge = refundedCharge(session.payment_intent as string, 19900);
    const partial = await s.send(stripeEvent('charge.refunded', { ...charge, amount_refunded: 100, refunded: false }));
    expect(partial.body).toMatchObject({ outcome: 'ignored' });
    expect((await records(s)).licenses[0].status).toBe('active');

    const event = stripeEvent('charge.refunded', charge);
    expect(await s.send(event)).toMatchObject({ status: 200, body: { outcome: 'processed' } });
    expect(await s.send(event)).toMatchObject({ status: 200, body: { outcome: 'duplicate' } });
    const { licenses, customer } = await records(s);
    expect(licenses).toEqual([expect.objectContaining({ status: 'revoked', activatedCount: 0 })]);
    expect(customer.payments).toEqual([expect.objectContaining({ status: 'refunded', amount: 199 })]);
    const validated = await buyer.post('/v1/licenses/validate', { license_key: license.licenseKey }, { origin: null });
    expect(validated.status).toBe(400);
    expect(validated.body).toMatchObject({ valid: false });
    const activations = (await s.tenant.get(`/api/licenses/${license.id}`)).body.activations as any[];
    expect(activations.map((a) => a.status)).toEqual(['deactivated']);
  });

  it('ignores a refund of a charge it never recorded', async () => {
    const s = await shop();
    const res = await s.send(stripeEvent('charge.refunded', refundedCharge(stripeId('pi'), 19900)));
    expect(res.body).toMatchObject({ outcome: 'ignored' });
  });
});

/** A yearly purchase applied: the shop, the Stripe subscription and invoice, our license and customer. */
async function subscribed() {
  const s = await shop();
  const { session, subscription } = await paidCheckout(s, 'yearly');
  expect((await s.send(stripeEvent('checkout.session.completed', session))).status).toBe(200);
  const { licenses, customer } = await records(s);
  return { s, session, subscription: subscription!, license: licenses[0], customer };
}

const invoice = (subscription: string, billingReason: 'subscription_create' | 'subscription_cycle', start: number, end: number) =>
  stripeInvoice({ subscription, billingReason, start, end, invoicePdf: 'https://pay.stripe.test/invoice/acct/pdf' });

describe('Stripe webhook: invoice.paid', () => {
  it('changes nothing for the first invoice of a subscription (the checkout\'s own payment)', async () => {
    const { s, subscription, license } = await subscribed();
    const period = subscription.items.data[0]!;
    const first = await s.send(stripeEvent('invoice.paid', invoice(subscription.id, 'subscription_create', period.current_period_start, period.current_period_end)));
    expect(first.body).toMatchObject({ outcome: 'ignored' });
    const { licenses, customer } = await records(s);
    expect(licenses[0].expiresAt).toBe(license.expiresAt);
    expect(customer.payments).toHaveLength(1);
  });

  it('records a renewal: a second payment, the license and subscription moved to the new period end, once', async () => {
    const { s, subscription } = await subscribed();
    const start = subscription.items.data[0]!.current_period_end;
    const end = start + 365 * DAY;
    const event = stripeEvent('invoice.paid', invoice(subscription.id, 'subscription_cycle', start, end));
    expect(await s.send(event)).toMatchObject({ status: 200, body: { outcome: 'processed' } });
    expect(await s.send(event)).toMatchObject({ status: 200, body: { outcome: 'duplicate' } });
    const { licenses, customer } = await records(s);
    const newEnd = new Date(end * 1000).toISOString();
    expect(licenses[0]).toMatchObject({ status: 'active', expiresAt: newEnd });
    expect(customer.payments).toHaveLength(2);
    expect(customer.payments[0]).toMatchObject({ amount: 49.5, status: 'completed', invoicePdfUrl: 'https://pay.stripe.test/invoice/acct/pdf' });
    expect(customer.subscriptions[0]).toMatchObject({ currentPeriodStart: new Date(start * 1000).toISOString(), currentPeriodEnd: newEnd });
  });
});

describe('Stripe webhook: charge.refunded of a subscription payment', () => {
  /**
   * A refund as the current API reports it: the charge names its payment intent only, and Stripe ties the payment
   * intent to the invoice it paid through an invoice payment (put in place in the fake, as Stripe keeps it).
   */
  async function refund(s: Shop, invoiceId: string, amount = 4950, amountRefunded = amount) {
    const paymentIntent = stripeId('pi');
    await fake.putInvoicePayment(s.secretKey, stripeInvoicePayment(invoiceId, paymentIntent, amount));
    return s.send(stripeEvent('charge.refunded', refundedCharge(paymentIntent, amount, amountRefunded)));
  }

  /** What a refund emits: every delivery of the refund's two events to a webhook subscribed to them. */
  async function hooked(s: Shop) {
    const receiver = await startReceiver();
    const hook = await s.tenant.post('/api/webhooks', { name: 'Refunds', url: receiver.url, events: ['license.revoked', 'payment.refunded'] });
    expect(hook.status, hook.text).toBe(201);
    return receiver;
  }

  it("revokes the license and refunds the first payment when the checkout's own payment is refunded", async () => {
    const { s, session, license } = await subscribed();
    const receiver = await hooked(s);
    try {
      const activated = await buyer.post('/v1/licenses/activate', { license_key: license.licenseKey, domain: 'shop.example.com' }, { origin: null });
      expect(activated.status, activated.text).toBe(200);
      // A partial refund keeps the license and the payment as they are.
      expect((await refund(s, session.invoice as string, 4950, 1000)).body).toMatchObject({ outcome: 'ignored' });
      expect((await records(s)).licenses[0].status).toBe('active');

      expect(await refund(s, session.invoice as string)).toMatchObject({ status: 200, body: { outcome: 'processed' } });
      const { licenses, customer } = await records(s);
      expect(licenses).toEqual([expect.objectContaining({ id: license.id, status: 'revoked', activatedCount: 0 })]);
      expect(customer.payments).toEqual([expect.objectContaining({ status: 'refunded', amount: 49.5 })]);
      const delivered = await receiver.waitFor(2);
      expect(delivered.map((r) => [r.json.type, r.json.data.id]).sort()).toEqual([
        ['license.revoked', license.id],
        ['payment.refunded', customer.payments[0].id],
      ]);
      expect(delivered.find((r) => r.json.type === 'payment.refunded')!.json.data).toMatchObject({ status: 'refunded', amount: 49.5 });
    } finally {
      await receiver.close();
    }
  });

  it('revokes the license and refunds that renewal payment only when a renewal is refunded', async () => {
    const { s, subscription, license } = await subscribed();
    const start = subscription.items.data[0]!.current_period_end;
    const renewal = invoice(subscription.id, 'subscription_cycle', start, start + 365 * DAY);
    expect(await s.send(stripeEvent('invoice.paid', renewal))).toMatchObject({ status: 200, body: { outcome: 'processed' } });
    const receiver = await hooked(s);
    try {
      // Stripe cannot say which invoice the payment intent paid: 502, nothing changes, and Stripe's retry applies it.
      await fake.setOutage(s.secretKey, 'error');
      try {
        expect(await refund(s, renewal.id)).toMatchObject({ status: 502, body: { error: 'Payment provider unavailable' } });
        expect((await records(s)).licenses[0].status).toBe('active');
      } finally {
        await fake.setOutage(s.secretKey, null);
      }
      expect(await refund(s, renewal.id)).toMatchObject({ status: 200, body: { outcome: 'processed' } });
      const { licenses, customer } = await records(s);
      expect(licenses).toEqual([expect.objectContaining({ id: license.id, status: 'revoked' })]);
      // Newest first: the renewal's payment is refunded, the checkout's stays completed.
      expect(customer.payments.map((p: any) => p.status)).toEqual(['refunded', 'completed']);
      const delivered = await receiver.waitFor(2);
      expect(delivered.map((r) => [r.json.type, r.json.data.id]).sort()).toEqual([
        ['license.revoked', license.id],
        ['payment.refunded', customer.payments[0].id],
      ]);
    } finally {
      await receiver.close();
    }
  });

  it('ignores a refunded payment intent that paid no invoice recorded here', async () => {
    const { s } = await subscribed();
    expect((await refund(s, stripeId('in'))).body).toMatchObject({ outcome: 'ignored' });
    expect((await records(s)).licenses[0].status).toBe('active');
  });
});

describe('Stripe webhook: customer.subscription.updated and deleted', () => {
  it('records a cancellation at period end, then on deletion the license expires at the period end', async () => {
    const { s, subscription, license } = await subscribed();
    const period = subscription.items.data[0]!;
    const canceledAt = unixNow();
    const cancelling = stripeSubscription({ id: subscription.id, start: period.current_period_start, end: period.current_period_end, cancelAtPeriodEnd: true, canceledAt });
    expect(await s.send(stripeEvent('customer.subscription.updated', cancelling))).toMatchObject({ status: 200, body: { outcome: 'processed' } });
    let { licenses, customer } = await records(s);
    expect(customer.subscriptions[0]).toMatchObject({ status: 'active', cancelAtPeriodEnd: true, canceledAt: new Date(canceledAt * 1000).toISOString() });
    expect(licenses[0]).toMatchObject({ status: 'active', expiresAt: license.expiresAt });

    const ended = { ...cancelling, status: 'canceled' };
    expect(await s.send(stripeEvent('customer.subscription.deleted', ended))).toMatchObject({ status: 200, body: { outcome: 'processed' } });
    ({ licenses, customer } = await records(s));
    expect(customer.subscriptions[0]).toMatchObject({ status: 'canceled', cancelAtPeriodEnd: true });
    expect(licenses[0]).toMatchObject({ status: 'active', expiresAt: new Date(period.current_period_end * 1000).toISOString() });

    // Stripe does not deliver in order: an update created before the deletion, arriving after it, changes nothing.
    const late = await s.send(stripeEvent('customer.subscription.updated', { ...cancelling, cancel_at_period_end: false }, unixNow() - 60));
    expect(late.body).toMatchObject({ outcome: 'ignored' });
    expect((await records(s)).customer.subscriptions[0]).toMatchObject({ status: 'canceled', cancelAtPeriodEnd: true });
  });

  it('ignores a subscription it never recorded', async () => {
    const s = await shop();
    const res = await s.send(stripeEvent('customer.subscription.deleted', stripeSubscription({ start: unixNow(), end: unixNow() + DAY, status: 'canceled' })));
    expect(res.body).toMatchObject({ outcome: 'ignored' });
  });
});

describe('Stripe webhook: outbound events', () => {
  it('emits each event of a purchase, renewal, cancellation and refund once, however often Stripe delivers', async () => {
    const receiver = await startReceiver();
    try {
      const s = await shop();
      const hook = await s.tenant.post('/api/webhooks', { name: 'All', url: receiver.url, events: [...EVENT_TYPES] });
      expect(hook.status, hook.text).toBe(201);
      const { session, subscription } = await paidCheckout(s, 'yearly');
      const purchase = stripeEvent('checkout.session.completed', session);
      for (const res of await Promise.all([s.send(purchase), s.send(purchase), s.send(purchase)])) expect([200, 409]).toContain(res.status);
      const start = subscription!.items.data[0]!.current_period_end;
      const renewal = stripeEvent('invoice.paid', invoice(subscription!.id, 'subscription_cycle', start, start + 365 * DAY));
      const ended = stripeEvent('customer.subscription.deleted', stripeSubscription({ id: subscription!.id, start, end: start + 365 * DAY, status: 'canceled' }));
      const lifetime = await paidCheckout(s, 'lifetime');
      const bought = stripeEvent('checkout.session.completed', lifetime.session);
      const refund = stripeEvent('charge.refunded', refundedCharge(lifetime.session.payment_intent as string, 19900));
      for (const event of [renewal, ended, bought, refund]) {
        for (const res of await Promise.all([s.send(event), s.send(event), s.send(event)])) expect([200, 409]).toContain(res.status);
      }
      expect(await s.send(purchase)).toMatchObject({ status: 200, body: { outcome: 'duplicate' } });

      const expected = [
        'customer.created', 'license.created', 'payment.completed', 'subscription.created',
        'payment.completed', 'subscription.renewed', 'subscription.cancelled',
        'license.created', 'payment.completed', 'license.revoked', 'payment.refunded',
      ];
      await receiver.waitFor(expected.length);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(receiver.requests.map((r) => r.json.type).sort()).toEqual([...expected].sort());
    } finally {
      await receiver.close();
    }
  });
});
