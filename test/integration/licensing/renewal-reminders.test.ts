import { describe, expect, inject, it } from 'vitest';
import { sweepRenewalReminders } from '../../../shared/licensing/licenses/renewal-reminders.js';
import { systemClock } from '../../../shared/platform/runtime.js';
import { newTenant } from '../../support/client.js';
import { emailsOnceSettled, sentEmails } from '../../support/mail.js';
import { localData } from '../../support/table.js';
import { startReceiver } from '../../support/webhook-receiver.js';

const DAY = 24 * 3600 * 1000;
/** The reminder part of the expiry sweep's job, as its function runs it (its key access, the stack's base URL). */
const sweep = () => sweepRenewalReminders({ data: localData('expirySweep'), clock: systemClock, config: { publicBaseUrl: inject('baseUrl') } });
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();

describe('renewal reminders (DECISIONS §15)', () => {
  it('sends one license.expiring event and one e-mail per listed day, however often and concurrently the sweep runs', async () => {
    const receiver = await startReceiver();
    try {
      const tenant = await newTenant();
      const product = (await tenant.post('/api/products', { name: 'Reminded Plugin', productType: 'plugin', renewalReminderDays: [7, 30, 7] })).body;
      expect(product.renewalReminderDays).toEqual([30, 7]);
      const plan = (await tenant.post(`/api/products/${product.id}/plans`, { name: 'Pro', billingCycle: 'yearly', price: 49, currency: 'usd', siteLimit: 2 })).body;
      expect((await tenant.post('/api/webhooks', { name: 'Reminders', url: receiver.url, events: ['license.expiring'] })).status).toBe(201);
      const license = async (customerEmail: string, expiresAt: string | null, planId?: string) => {
        const res = await tenant.post('/api/licenses', { productId: product.id, customerEmail, expiresAt, ...(planId && { planId }) });
        expect(res.status, res.text).toBe(201);
        return res.body;
      };
      // With the hosted portal on, a reminder links to it (DECISIONS §25).
      expect((await tenant.put('/api/portal-settings', { enabled: true })).status).toBe(200);
      const stamp = Date.now();
      const month = await license(`month-${stamp}@example.com`, inDays(20), plan.id); // day 30 has come, day 7 not yet
      const week = await license(`week-${stamp}@example.com`, inDays(6.5)); // both have come: one reminder, of day 7
      await license(`later-${stamp}@example.com`, inDays(100)); // none yet
      await license(`lifetime-${stamp}@example.com`, null);
      await license(`past-${stamp}@example.com`, inDays(-1)); // already expired: nothing to remind of

      await sweep();
      await Promise.all([sweep(), sweep(), sweep()]);
      await sweep();

      const ours = (email: { to: string[] }) => email.to.some((to) => to.endsWith(`-${stamp}@example.com`));
      const mails = await emailsOnceSettled(ours, 2);
      expect(mails.map((mail) => [mail.to, mail.subject]).sort()).toEqual([
        [[`month-${stamp}@example.com`], 'Your Reminded Plugin license expires in 20 days'],
        [[`week-${stamp}@example.com`], 'Your Reminded Plugin license expires in 7 days'],
      ]);
      const monthMail = mails.find((mail) => mail.to[0]!.startsWith('month-'))!;
      const renewalUrl = `${inject('baseUrl')}/public/v1/checkout/${plan.id.replace(/^pln_/, 'plan_')}?public_key=${product.public_key}`;
      expect(monthMail.text).toContain(renewalUrl);
      expect(monthMail.html).toContain(renewalUrl.replaceAll('&', '&amp;'));
      expect(monthMail.text).toContain(month.licenseKey);
      const portalUrl = `${inject('baseUrl')}/portal?public_key=${product.public_key}`;
      expect(monthMail.text).toContain(`customer portal:\n    ${portalUrl}`);
      expect(monthMail.html).toContain(`href="${portalUrl}"`);
      expect(mails.find((mail) => mail.to[0]!.startsWith('week-'))!.text).toContain('contact');

      await receiver.waitFor(2);
      await expect.poll(() => receiver.requests.length, { timeout: 1500 }).toBe(2);
      const events = receiver.requests.map((request) => request.json).sort((a, b) => a.data.reminderDay - b.data.reminderDay);
      expect(events.map((event) => [event.type, event.data.id, event.data.reminderDay, event.data.renewalUrl])).toEqual([
        ['license.expiring', week.id, 7, null],
        ['license.expiring', month.id, 30, renewalUrl],
      ]);

      // Nothing more is due now, however often the sweep runs.
      await sweep();
      expect(await sentEmails(ours)).toHaveLength(2);
    } finally {
      await receiver.close();
    }
  });

  it('validates the product setting: 1–60 whole days; [] turns reminders off', async () => {
    const tenant = await newTenant();
    for (const days of [[0], [61], [1.5], 'x']) {
      const res = await tenant.post('/api/products', { name: 'Bad', productType: 'plugin', renewalReminderDays: days });
      expect(res.status, JSON.stringify(days)).toBe(400);
    }
    const res = await tenant.post('/api/products', { name: 'Quiet', productType: 'plugin', renewalReminderDays: [], graceDays: 0 });
    expect(res.body).toMatchObject({ renewalReminderDays: [], graceDays: 0 });
    expect((await tenant.put(`/api/products/${res.body.id}`, { graceDays: 31 })).status).toBe(400);
    expect((await tenant.get(`/api/products/${res.body.id}`)).body).toMatchObject({ renewalReminderDays: [], graceDays: 0 });
  });
});
