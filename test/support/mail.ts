import { expect, vi } from 'vitest';
import { Client } from './client.js';

/** One e-mail as `GET /_local/mail` shows it (DECISIONS §1). */
export type SentEmail = { to: string[]; from: string; subject: string; text: string; html: string; at: string };

const local = new Client();

/** Every e-mail the local stack has sent that `matches`, oldest first. */
export async function sentEmails(matches: (email: SentEmail) => boolean): Promise<SentEmail[]> {
  const res = await local.get('/_local/mail');
  expect(res.status, res.text).toBe(200);
  return (res.body.emails as SentEmail[]).filter(matches);
}

/**
 * Waits until at least `count` e-mails that match have been sent, and answers them. `vi.waitFor` rather than
 * `expect.poll`, which a concurrent test (`it.concurrent`) cannot call.
 */
export async function emailsSent(matches: (email: SentEmail) => boolean, count = 1): Promise<SentEmail[]> {
  return vi.waitFor(
    async () => {
      const sent = await sentEmails(matches);
      expect(sent.length).toBeGreaterThanOrEqual(count);
      return sent;
    },
    { timeout: 15_000, interval: 100 },
  );
}

/** Waits until `count` e-mails that match have been sent, then until the mail queue holds nothing more to send. */
export async function emailsOnceSettled(matches: (email: SentEmail) => boolean, count: number): Promise<SentEmail[]> {
  await emailsSent(matches, count);
  await expect.poll(async () => (await local.get('/_local/mail-queue')).body.messages, { timeout: 15_000, interval: 100 }).toBe(0);
  return sentEmails(matches);
}

const VERIFICATION_LINK = /https?:\/\/\S+\/api\/auth\/verify-email\?token=[a-z2-7]{32}/;

/** The links of the verification e-mails sent to `email` so far (at least `count`, waiting for them), oldest first. */
export async function verificationLinks(email: string, count = 1): Promise<string[]> {
  const isVerification = (sent: SentEmail) => sent.to.includes(email) && sent.subject === 'Confirm your e-mail address';
  return (await emailsSent(isVerification, count)).map((sent) => VERIFICATION_LINK.exec(sent.text)![0]);
}

/** Opens the newest verification link sent to `email`, as its owner would: the address is verified then. */
export async function verifyAddress(email: string): Promise<void> {
  const link = (await verificationLinks(email)).at(-1)!;
  const res = await fetch(link, { redirect: 'manual' });
  expect(res.status, await res.text()).toBeLessThan(400);
}
