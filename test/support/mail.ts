import { expect, inject, vi } from 'vitest';

/** One e-mail as `GET /_local/mail` shows it (DECISIONS §1). */
export type SentEmail = { to: string[]; from: string; subject: string; text: string; html: string; at: string };

/** Every e-mail the local stack has sent that `matches`, oldest first. `baseUrl`: a test file's own stack's, else the shared one's. */
export async function sentEmails(matches: (email: SentEmail) => boolean, baseUrl = inject('baseUrl')): Promise<SentEmail[]> {
  const res = await fetch(`${baseUrl}/_local/mail`);
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return (JSON.parse(text).emails as SentEmail[]).filter(matches);
}

/**
 * Waits until at least `count` e-mails that match have been sent, and answers them. `vi.waitFor` rather than
 * `expect.poll`, which a concurrent test (`it.concurrent`) cannot call.
 */
export async function emailsSent(matches: (email: SentEmail) => boolean, count = 1, baseUrl = inject('baseUrl')): Promise<SentEmail[]> {
  return vi.waitFor(
    async () => {
      const sent = await sentEmails(matches, baseUrl);
      expect(sent.length).toBeGreaterThanOrEqual(count);
      return sent;
    },
    { timeout: 15_000, interval: 100 },
  );
}

/** Waits until `count` e-mails that match have been sent, then until the mail queue holds nothing more to send. */
export async function emailsOnceSettled(matches: (email: SentEmail) => boolean, count: number): Promise<SentEmail[]> {
  await emailsSent(matches, count);
  const queued = async () => ((await (await fetch(`${inject('baseUrl')}/_local/mail-queue`)).json()) as { messages: number }).messages;
  await expect.poll(queued, { timeout: 15_000, interval: 100 }).toBe(0);
  return sentEmails(matches);
}

const VERIFICATION_LINK = /https?:\/\/\S+\/api\/auth\/verify-email\?token=[a-z2-7]{32}/;

/** The links of the verification e-mails sent to `email` so far (at least `count`, waiting for them), oldest first. */
export async function verificationLinks(email: string, count = 1, baseUrl = inject('baseUrl')): Promise<string[]> {
  const isVerification = (sent: SentEmail) => sent.to.includes(email) && sent.subject === 'Confirm your e-mail address';
  return (await emailsSent(isVerification, count, baseUrl)).map((sent) => VERIFICATION_LINK.exec(sent.text)![0]);
}

/**
 * Opens the newest verification link sent to `email`, as its owner would: the address is verified then. Opened on
 * `baseUrl`, the stack that sent it: a stack started again in one process keeps the first one's `PUBLIC_BASE_URL`.
 */
export async function verifyAddress(email: string, baseUrl = inject('baseUrl')): Promise<void> {
  const link = new URL((await verificationLinks(email, 1, baseUrl)).at(-1)!);
  const res = await fetch(`${baseUrl}${link.pathname}${link.search}`, { redirect: 'manual' });
  expect(res.status, await res.text()).toBeLessThan(400);
}
