import { describe, expect, it } from 'vitest';
import { failedPeriodEnd, graceEnd, invoiceSubscriptionId } from '../../../shared/billing/commerce/stripe-mapping.js';
import { dueAt } from '../../../shared/licensing/licenses/expiry-items.js';
import { reminderStep } from '../../../shared/licensing/licenses/renewal-reminders.js';
import { inGrace, licenseProblem } from '../../../shared/licensing/operations/license-state.js';
import { renderLicenseTransferredMail, renderRenewalReminderMail } from '../../../shared/messaging/mail/lifecycle-mail-templates.js';
import { stripeInvoice } from '../../support/stripe-objects.js';

const at = (iso: string) => Date.parse(iso) / 1000;
const DAY = 24 * 3600 * 1000;

describe('invoice.payment_failed mapping', () => {
  // Stripe bills a renewal when the period it renews ends: the invoice's own period is that one, its line's the next.
  const invoice = stripeInvoice({ subscription: 'sub_1', billingReason: 'subscription_cycle', start: at('2026-12-01T00:00:00Z'), end: at('2027-12-01T00:00:00Z') });

  it("reads the failed period's end from the invoice's own period, and the subscription as invoice.paid does", () => {
    expect(failedPeriodEnd(invoice)).toBe('2026-12-01T00:00:00.000Z');
    expect(failedPeriodEnd({ period_end: 0 })).toBeUndefined();
    expect(invoiceSubscriptionId(invoice)).toBe('sub_1');
  });

  it('gives grace until that end + the grace days', () => {
    expect(graceEnd('2026-12-01T00:00:00.000Z', 7)).toBe('2026-12-08T00:00:00.000Z');
    expect(graceEnd('2026-12-01T00:00:00.000Z', 0)).toBe('2026-12-01T00:00:00.000Z');
  });
});

describe('grace on the license', () => {
  const now = new Date('2026-12-03T00:00:00Z');
  const lapsed = { status: 'active' as const, expiresAt: '2026-12-01T00:00:00.000Z' };

  it('keeps an active license with a passed expiry valid until graceUntil, and only an active one', () => {
    expect(licenseProblem(lapsed, now)).toBe('License has expired');
    const graced = { ...lapsed, graceUntil: '2026-12-08T00:00:00.000Z' };
    expect(inGrace(graced, now)).toBe(true);
    expect(licenseProblem(graced, now)).toBeUndefined();
    expect(inGrace(graced, new Date('2026-12-08T00:00:00Z'))).toBe(false);
    expect(licenseProblem(graced, new Date('2026-12-08T00:00:00Z'))).toBe('License has expired');
    expect(inGrace({ ...graced, status: 'suspended' }, now)).toBe(false);
    expect(inGrace(lapsed, now)).toBe(false);
  });

  it('has the sweep expire it at the later of its expiry and its grace', () => {
    expect(dueAt(lapsed)).toBe(lapsed.expiresAt);
    expect(dueAt({ ...lapsed, graceUntil: '2026-12-08T00:00:00.000Z' })).toBe('2026-12-08T00:00:00.000Z');
    expect(dueAt({ ...lapsed, graceUntil: '2026-11-01T00:00:00.000Z' })).toBe(lapsed.expiresAt);
    expect(dueAt({ status: 'expired', expiresAt: lapsed.expiresAt })).toBeUndefined();
    expect(dueAt({ status: 'active' })).toBeUndefined();
  });
});

describe('renewal reminder steps', () => {
  const expiresAt = '2027-01-31T00:00:00.000Z';
  const before = (days: number) => new Date(Date.parse(expiresAt) - days * DAY);

  it('waits for the largest day, then reminds of each day in turn, looking again at the next one', () => {
    expect(reminderStep([30, 7], expiresAt, before(60))).toEqual({ nextAt: before(30).toISOString() });
    expect(reminderStep([30, 7], expiresAt, before(30))).toEqual({ day: 30, nextAt: before(7).toISOString() });
    expect(reminderStep([30, 7], expiresAt, before(7))).toEqual({ day: 7 });
    expect(reminderStep([], expiresAt, before(60))).toEqual({});
  });

  it('sends one reminder, of the nearest day, when several came at once (a late license, a missed run)', () => {
    expect(reminderStep([30, 14, 7], expiresAt, before(10))).toEqual({ day: 14, nextAt: before(7).toISOString() });
    expect(reminderStep([30, 14, 7], expiresAt, before(1))).toEqual({ day: 7 });
  });
});

describe('lifecycle e-mails', () => {
  it('tells the days left and the renewal link, escaped in the HTML', () => {
    const mail = renderRenewalReminderMail({
      productName: 'SEO <Pro>',
      licenseKey: 'SEO-AAAA-BBBB-CCCC-DDDD',
      expiresAt: '2027-01-31T00:00:00.000Z',
      daysLeft: 1,
      renewalUrl: 'https://licenses.example.com/public/v1/checkout/plan_x?public_key=pk_y&z=1',
      customerName: 'Jane',
    });
    expect(mail.subject).toBe('Your SEO <Pro> license expires in 1 day');
    expect(mail.text).toContain('expires on 31 January 2027');
    expect(mail.text).toContain('https://licenses.example.com/public/v1/checkout/plan_x?public_key=pk_y&z=1');
    expect(mail.html).toContain('SEO &lt;Pro&gt;');
    expect(mail.html).toContain('public_key=pk_y&amp;z=1');
    expect(renderRenewalReminderMail({ productName: 'X', licenseKey: 'K', expiresAt: '2027-01-31T00:00:00.000Z', daysLeft: 7, sellerName: 'Acme' }).text).toContain('contact Acme to renew it');
  });

  it("gives a transferred license's new owner the key and its term", () => {
    const mail = renderLicenseTransferredMail({ productName: 'SEO Pro', licenseKey: 'SEO-AAAA-BBBB-CCCC-DDDD', seats: 1 });
    expect(mail.subject).toBe('A SEO Pro license was transferred to you');
    expect(mail.text).toContain('SEO-AAAA-BBBB-CCCC-DDDD');
    expect(mail.text).toContain('It does not expire.');
    expect(mail.text).toContain('1 site at once');
  });
});
