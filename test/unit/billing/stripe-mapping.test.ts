import type Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import {
  chargePaymentIds, chargePaymentIntentId, firstInvoicePdf, invoicePeriod, paidInvoiceIds, invoiceSubscriptionId, paymentRecord, purchaseEmail, purchaseMetadata, sessionPaymentId, sessionSubscriptionId,
  subscriptionPeriod, subscriptionRecord, subscriptionState,
} from '../../../shared/billing/commerce/stripe-mapping.js';
import { customerDetails, stripeCharge, stripeCheckoutSession, stripeInvoice, stripeInvoicePayment, stripeList, stripeSubscription } from '../../support/stripe-objects.js';

const at = (iso: string) => Date.parse(iso) / 1000;
const now = new Date('2026-11-23T12:00:00.000Z');

describe('checkout.session.completed mapping', () => {
  const session = stripeCheckoutSession({
    id: 'cs_test_1',
    metadata: { developer_id: 'usr_a', product_id: 'prd_b', plan_id: 'pln_c', activate_param: 'k' },
    customer_details: customerDetails('typed@example.com', 'Jane Buyer'),
    customer_email: 'given@example.com',
    payment_intent: null,
    invoice: 'in_1',
    subscription: stripeSubscription({ id: 'sub_1', start: at('2026-11-23T00:00:00Z'), end: at('2027-11-23T00:00:00Z') }),
  });

  it('reads whose sale it is from the metadata checkout wrote, and nothing when it does not say', () => {
    expect(purchaseMetadata(session)).toEqual({ tenantId: 'usr_a', productId: 'prd_b' });
    expect(purchaseMetadata({ metadata: { developer_id: 'usr_a' } })).toBeUndefined();
    expect(purchaseMetadata({ metadata: null })).toBeUndefined();
  });

  it('takes the e-mail typed at checkout, else the one checkout was opened with', () => {
    expect(purchaseEmail(session)).toBe('typed@example.com');
    expect(purchaseEmail({ customer_details: null, customer_email: 'given@example.com' })).toBe('given@example.com');
    expect(purchaseEmail({ customer_details: null, customer_email: null })).toBeUndefined();
  });

  it('names the payment by its payment intent, else its invoice; the subscription by id or expanded object', () => {
    expect(sessionPaymentId(session)).toBe('in_1');
    expect(sessionPaymentId({ payment_intent: 'pi_1', invoice: null })).toBe('pi_1');
    expect(sessionSubscriptionId(session)).toBe('sub_1');
    expect(sessionSubscriptionId({ subscription: null })).toBeUndefined();
  });

  it("links the first invoice's document while it is the subscription's latest, and no other invoice's", () => {
    const first = stripeInvoice({ id: 'in_1', subscription: 'sub_1', billingReason: 'subscription_create', start: 0, end: 1, invoicePdf: 'https://pay.stripe.test/in_1/pdf' });
    const renewal = stripeInvoice({ id: 'in_2', subscription: 'sub_1', billingReason: 'subscription_cycle', start: 1, end: 2, invoicePdf: 'https://pay.stripe.test/in_2/pdf' });
    expect(firstInvoicePdf(session, { latest_invoice: first })).toBe('https://pay.stripe.test/in_1/pdf');
    expect(firstInvoicePdf(session, { latest_invoice: renewal })).toBeUndefined();
    expect(firstInvoicePdf(session, { latest_invoice: 'in_1' })).toBeUndefined();
    expect(firstInvoicePdf(session, { latest_invoice: { ...first, invoice_pdf: null } })).toBeUndefined();
  });

  it('records the payment in major units of the currency, by Stripe', () => {
    const payment = paymentRecord({
      paymentId: 'pay_1', tenantId: 'usr_a', customerId: 'cus_1', licenseId: 'lic_1', product: { productId: 'prd_b', name: 'Plugin' },
      amountMinor: 4950, currency: 'usd', providerPaymentId: 'in_1', now,
    });
    expect(payment).toEqual({
      paymentId: 'pay_1', tenantId: 'usr_a', customerId: 'cus_1', licenseId: 'lic_1', productId: 'prd_b', productName: 'Plugin',
      amount: 49.5, currency: 'USD', status: 'completed', paymentMethod: 'stripe', providerPaymentId: 'in_1', createdAt: now.toISOString(),
    });
    expect(paymentRecord({ paymentId: 'pay_2', tenantId: 'usr_a', customerId: 'cus_1', licenseId: 'lic_1', product: { productId: 'prd_b', name: 'Plugin' }, amountMinor: 4900, currency: 'jpy', providerPaymentId: undefined, now }))
      .toMatchObject({ amount: 4900, currency: 'JPY' });
  });

  it('records the subscription with the plan\'s name, cycle and price and Stripe\'s status and period', () => {
    const record = subscriptionRecord({
      subscriptionId: 'sub_ours', tenantId: 'usr_a', customerId: 'cus_1', licenseId: 'lic_1', product: { productId: 'prd_b', name: 'Plugin' },
      plan: { planId: 'pln_c', name: 'Pro', billingCycle: 'yearly', price: 49.5, currency: 'USD' },
      providerSubscriptionId: 'sub_1', status: 'active', period: { start: '2026-11-23T12:00:00.000Z', end: '2027-11-23T12:00:00.000Z' }, now,
    });
    expect(record).toMatchObject({
      planName: 'Pro', billingCycle: 'yearly', price: 49.5, currency: 'USD', status: 'active', productName: 'Plugin', cancelAtPeriodEnd: false,
      currentPeriodStart: '2026-11-23T12:00:00.000Z', currentPeriodEnd: '2027-11-23T12:00:00.000Z', providerSubscriptionId: 'sub_1',
    });
  });
});

describe('subscription mapping', () => {
  const current = stripeSubscription({ start: at('2026-11-23T00:00:00Z'), end: at('2027-11-23T00:00:00Z') });

  it('reads the period from the first item (current API), else from the subscription (older versions)', () => {
    const period = { start: '2026-11-23T00:00:00.000Z', end: '2027-11-23T00:00:00.000Z' };
    expect(subscriptionPeriod(current)).toEqual(period);
    // An account pinned before 2025-03-31: the period on the subscription, none on its items.
    const legacy = { items: { data: [{}] }, current_period_start: at('2026-11-23T00:00:00Z'), current_period_end: at('2027-11-23T00:00:00Z') };
    expect(subscriptionPeriod(legacy as unknown as Stripe.Subscription)).toEqual(period);
    expect(subscriptionPeriod({ ...current, items: stripeList([], '/v1/subscription_items') })).toBeUndefined();
  });

  it('syncs status, cancellation at period end, cancellation time and period (customer.subscription.updated / deleted)', () => {
    const subscription = { ...current, cancel_at_period_end: true, canceled_at: at('2026-12-01T00:00:00Z') };
    expect(subscriptionState(subscription)).toEqual({
      status: 'active', cancelAtPeriodEnd: true, canceledAt: '2026-12-01T00:00:00.000Z',
      currentPeriodStart: '2026-11-23T00:00:00.000Z', currentPeriodEnd: '2027-11-23T00:00:00.000Z',
    });
    expect(subscriptionState({ ...subscription, status: 'canceled', cancel_at_period_end: false, canceled_at: null })).toMatchObject({
      status: 'canceled', cancelAtPeriodEnd: false, canceledAt: undefined,
    });
  });
});

describe('invoice.paid mapping', () => {
  it('finds the subscription under parent (current API) or top-level (older versions), and the paid period', () => {
    const invoice = stripeInvoice({ subscription: 'sub_1', billingReason: 'subscription_cycle', start: at('2027-11-23T00:00:00Z'), end: at('2028-11-23T00:00:00Z') });
    expect(invoiceSubscriptionId(invoice)).toBe('sub_1');
    // An account pinned before 2025-03-31: the subscription top-level.
    const legacy: Stripe.Invoice & { subscription: string } = { ...invoice, parent: null, subscription: 'sub_2' };
    expect(invoiceSubscriptionId(legacy)).toBe('sub_2');
    expect(invoicePeriod(invoice)).toEqual({ start: '2027-11-23T00:00:00.000Z', end: '2028-11-23T00:00:00.000Z' });
    expect(invoicePeriod({ ...invoice, lines: stripeList([], '/v1/invoices/in_1/lines') })).toBeUndefined();
  });
});

describe('charge.refunded mapping', () => {
  it('names the payments a charge may refund: its payment intent, and its invoice on API versions before 2025-03-31', () => {
    expect(chargePaymentIds(stripeCharge({ payment_intent: 'pi_1' }))).toEqual(['pi_1']);
    const legacy: Stripe.Charge & { invoice: string } = { ...stripeCharge({ payment_intent: 'pi_2' }), invoice: 'in_2' };
    expect(chargePaymentIds(legacy)).toEqual(['pi_2', 'in_2']);
    expect(chargePaymentIds(stripeCharge({ payment_intent: null }))).toEqual([]);
    expect(chargePaymentIntentId(stripeCharge({ payment_intent: 'pi_3' }))).toBe('pi_3');
  });

  it('finds the invoices a payment intent paid through its invoice payments (the current API)', () => {
    const payments = stripeList([stripeInvoicePayment('in_1', 'pi_1'), { ...stripeInvoicePayment('in_2', 'pi_1'), invoice: { id: 'in_3' } as Stripe.Invoice }], '/v1/invoice_payments');
    expect(paidInvoiceIds(payments)).toEqual(['in_1', 'in_3']);
    expect(paidInvoiceIds(stripeList([], '/v1/invoice_payments'))).toEqual([]);
  });
});
