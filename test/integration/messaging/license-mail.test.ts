import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Context, SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMailSenderHandler } from '../../../functions/mail-sender/app.js';
import { startMailServer, type MailServer } from '../../../infra/local/mail-server.js';
import { freePort } from '../../../infra/local/ports.js';
import { loadConfig } from '../../../shared/platform/config.js';
import { newId } from '../../../shared/platform/ids.js';
import { generateLicenseKey } from '../../../shared/licensing/licenses/license-key.js';
import { sendLicenseMail, SEND_LEASE_SECONDS, type LicenseMailDeps } from '../../../shared/messaging/mail/license-mail.js';
import { sendQueuedMail } from '../../../shared/messaging/mail/queued-mail.js';
import { createMailer } from '../../../shared/messaging/mail/mailer.js';
import { metrics } from '../../../shared/platform/observability/metrics.js';
import { localData, tableOfItsOwn } from '../../support/table.js';

/**
 * The mail sender's domain function as its function runs it: the table through the sender's key-access role,
 * and SES through the SDK, pointed at the SES stand-in (or at an SES that refuses every e-mail: for now, as when the
 * account's sending is paused, or for good, as the sandbox refuses an unverified recipient). In a table of its own:
 * the stack's stream would forward the e-mails written here to its own sender, which then races this test's.
 */
const data = localData('mailSender', await tableOfItsOwn());
let ses: MailServer;
const refusingSeses: Server[] = [];

/** An SES that answers every e-mail with the refusal SES names `errorType`. */
async function sesRefusing(errorType: string, message: string): Promise<string> {
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(400, { 'content-type': 'application/json', 'x-amzn-errortype': errorType });
    res.end(JSON.stringify({ message }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  refusingSeses.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
let pausedSesUrl: string;
let sandboxSesUrl: string;

beforeAll(async () => {
  ses = await startMailServer({ port: await freePort() });
  pausedSesUrl = await sesRefusing('SendingPausedException', 'Sending is paused for this account.');
  sandboxSesUrl = await sesRefusing('MessageRejected', 'Email address is not verified. The following identities failed the check in region US-EAST-1: buyer@example.com');
});

afterAll(async () => {
  await ses.stop();
  for (const server of refusingSeses) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const mailerAt = (endpoint: string) => createMailer(loadConfig({ RUNTIME: 'local', TABLE_NAME: 'unused', SES_ENDPOINT: endpoint, MAIL_FROM: 'sales@vendor.example' }, ['mail']));
const depsAt = (endpoint: string, now = () => new Date()): LicenseMailDeps => ({ data, clock: { now }, mailer: mailerAt(endpoint) });

/** A license e-mail as a purchase queues it. */
async function queuedMail(overrides: { sellerName?: string } = {}) {
  const licenseId = newId('lic');
  const licenseKey = generateLicenseKey('MAIL-');
  const now = new Date();
  await data.entities.licenseMail
    .create({
      licenseId, tenantId: newId('usr'), to: 'buyer@example.com', productName: 'Mail Plugin', licenseKey, seats: 1, renews: false,
      sellerName: overrides.sellerName ?? 'Acme Plugins', replyTo: 'help@acme.example', status: 'pending', attempts: 0,
      createdAt: now.toISOString(), ttl: Math.floor(now.getTime() / 1000) + 3600,
    })
    .go();
  return { licenseId, licenseKey };
}

const sentWith = (key: string) => ses.sent().filter((email) => email.text.includes(key));
const mailItem = async (licenseId: string) => (await data.entities.licenseMail.get({ licenseId }).go({ consistent: true })).data!;

describe('license e-mail sender', () => {
  it('sends one e-mail when five copies of the message are handled at once, and none for a later copy', async () => {
    const { licenseId, licenseKey } = await queuedMail();
    const deps = depsAt(ses.endpoint);
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => sendLicenseMail(deps, licenseId)));
    expect(outcomes.filter((o) => o === 'sent')).toHaveLength(1);
    expect(await sendLicenseMail(deps, licenseId)).toBe('sent-before');
    const emails = sentWith(licenseKey);
    expect(emails).toHaveLength(1);
    expect(emails[0]).toMatchObject({ to: ['buyer@example.com'], from: '"Acme Plugins" <sales@vendor.example>', subject: 'Your Mail Plugin license key' });
    expect(await mailItem(licenseId)).toMatchObject({ status: 'sent', attempts: 1, messageId: expect.any(String) });
  });

  it('lets the e-mail go when SES cannot send it for now, so the next delivery of the message sends it once', async () => {
    const { licenseId, licenseKey } = await queuedMail();
    await expect(sendLicenseMail(depsAt(pausedSesUrl), licenseId)).rejects.toMatchObject({ name: 'SendingPausedException' });
    expect(await mailItem(licenseId)).toMatchObject({ status: 'pending', attempts: 1 });
    expect(sentWith(licenseKey)).toEqual([]);

    expect(await sendLicenseMail(depsAt(ses.endpoint), licenseId)).toBe('sent');
    expect(sentWith(licenseKey)).toHaveLength(1);
    expect(await mailItem(licenseId)).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('records an e-mail SES refuses for good and counts it, and never tries it again', async () => {
    const { licenseId, licenseKey } = await queuedMail();
    const counted = vi.spyOn(metrics, 'mailRefused');
    const at = new Date();
    expect(await sendLicenseMail(depsAt(sandboxSesUrl, () => at), licenseId)).toBe('refused');
    expect(counted.mock.calls).toEqual([['MessageRejected']]);
    const item = await mailItem(licenseId);
    expect(item).toMatchObject({ status: 'refused', attempts: 1, refusedAt: at.toISOString(), refusal: 'MessageRejected' });
    expect(item.leaseUntil).toBeUndefined();

    // Another copy of the message, even once SES would take it: nothing is sent, nothing counted again.
    expect(await sendLicenseMail(depsAt(ses.endpoint), licenseId)).toBe('refused-before');
    expect(sentWith(licenseKey)).toEqual([]);
    expect(counted).toHaveBeenCalledTimes(1);
    counted.mockRestore();
  });

  it('leaves an e-mail another sender holds, and takes it over once that sender\'s lease has run out', async () => {
    const { licenseId, licenseKey } = await queuedMail();
    const now = new Date();
    await data.entities.licenseMail
      .patch({ licenseId })
      .set({ status: 'sending', attempts: 1, leaseUntil: new Date(now.getTime() + SEND_LEASE_SECONDS * 1000).toISOString() })
      .go();
    expect(await sendLicenseMail(depsAt(ses.endpoint, () => now), licenseId)).toBe('in-progress');
    expect(sentWith(licenseKey)).toEqual([]);

    const later = new Date(now.getTime() + (SEND_LEASE_SECONDS + 1) * 1000);
    expect(await sendLicenseMail(depsAt(ses.endpoint, () => later), licenseId)).toBe('sent');
    expect(sentWith(licenseKey)).toHaveLength(1);
  });

  it('reports the failed messages of a batch for the queue to bring back, and drops unreadable ones', async () => {
    const failing = await queuedMail();
    // The handler logs each message it fails or drops (the logger writes through the console in tests): expected here.
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const handler = createMailSenderHandler(depsAt(pausedSesUrl));
    const record = (messageId: string, body: string) => ({ messageId, body }) as SQSEvent['Records'][number];
    const result = await handler(
      { Records: [record('m1', JSON.stringify({ licenseId: failing.licenseId })), record('m2', 'not json'), record('m3', JSON.stringify({ licenseId: newId('lic') }))] },
      {} as Context,
    );
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'm1' }] });
    expect(logged).toHaveBeenCalledTimes(3);
    logged.mockRestore();
  });

  it('does not report a message whose e-mail SES refused for good: the queue does not bring it back', async () => {
    const refused = await queuedMail();
    const warned = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const handler = createMailSenderHandler(depsAt(sandboxSesUrl));
    const result = await handler({ Records: [{ messageId: 'm1', body: JSON.stringify({ licenseId: refused.licenseId }) } as SQSEvent['Records'][number]] }, {} as Context);
    expect(result).toEqual({ batchItemFailures: [] });
    expect(warned.mock.calls.map(([line]) => String(line))).toEqual([expect.stringContaining('E-mail refused by SES for good')]);
    warned.mockRestore();
  });

  it('encodes a seller name beyond ASCII as SES requires', async () => {
    const { licenseId, licenseKey } = await queuedMail({ sellerName: 'Ünïcode Plugins' });
    expect(await sendLicenseMail(depsAt(ses.endpoint), licenseId)).toBe('sent');
    const [email] = sentWith(licenseKey);
    expect(email!.from).toBe(`=?UTF-8?B?${Buffer.from('Ünïcode Plugins').toString('base64')}?= <sales@vendor.example>`);
    expect(email!.text).toContain('— Ünïcode Plugins');
  });
});

describe('queued e-mail sender', () => {
  /** A renewal reminder as the reminder sweep queues it: to a customer, with their name and key. */
  async function queuedReminder() {
    const mailId = newId('eml');
    const licenseKey = generateLicenseKey('MAIL-');
    const now = new Date();
    const content = { productName: 'Mail Plugin', licenseKey, expiresAt: '2099-01-01T00:00:00.000Z', daysLeft: 7, customerName: "Dana O'Neil" };
    await data.entities.mail
      .create({ mailId, kind: 'renewalReminder', tenantId: newId('usr'), to: 'dana@example.com', content, status: 'pending', attempts: 0, createdAt: now.toISOString(), ttl: Math.floor(now.getTime() / 1000) + 3600 })
      .go();
    return { mailId, licenseKey };
  }
  const queuedItem = async (mailId: string) => (await data.entities.mail.get({ mailId }).go({ consistent: true })).data!;

  it('keeps no address or content once the e-mail is sent or refused, so a customer\'s erasure leaves none behind', async () => {
    const sent = await queuedReminder();
    expect(await sendQueuedMail(depsAt(ses.endpoint), sent.mailId)).toBe('sent');
    expect(sentWith(sent.licenseKey).map((email) => email.to)).toEqual([['dana@example.com']]);
    expect(await queuedItem(sent.mailId)).toMatchObject({ status: 'sent', to: '', content: {} });
    expect(await sendQueuedMail(depsAt(ses.endpoint), sent.mailId)).toBe('sent-before');

    const refused = await queuedReminder();
    expect(await sendQueuedMail(depsAt(sandboxSesUrl), refused.mailId)).toBe('refused');
    expect(await queuedItem(refused.mailId)).toMatchObject({ status: 'refused', to: '', content: {} });

    // Not sent for now: the next copy of the message still has what it needs.
    const paused = await queuedReminder();
    await expect(sendQueuedMail(depsAt(pausedSesUrl), paused.mailId)).rejects.toThrow();
    expect(await queuedItem(paused.mailId)).toMatchObject({ status: 'pending', to: 'dana@example.com', content: { licenseKey: paused.licenseKey } });
  });
});
