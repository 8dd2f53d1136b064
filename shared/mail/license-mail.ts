import { writeItem } from '../data/writes.js';
import type { Deps } from '../runtime.js';
import { renderLicenseMail } from './license-mail-template.js';
import type { Mailer } from './mailer.js';

export type LicenseMailDeps = Pick<Deps, 'data' | 'clock'> & { mailer: Mailer };

/**
 * How long a sender holds an e-mail it claimed: past the sender's timeout, so that only a sender that died
 * mid-send loses it; another one then takes it over when the queue hands the message out again.
 */
export const SEND_LEASE_SECONDS = 60;

/** What became of one queue message: sent now, or nothing to do (already sent, being sent, no such e-mail). */
export type MailOutcome = 'sent' | 'sent-before' | 'in-progress' | 'missing';

/**
 * Sends a license's e-mail once, however many copies of its queue message arrive. Each attempt is claimed by a
 * conditional write on the attempt count, so two copies handled at once make one send; a sent e-mail is never
 * sent again. A failed send lets the claim go and throws, and the queue brings the message back.
 * The one window left is SES accepting the e-mail and the sender dying before it records that: the e-mail goes
 * again once the lease is over (docs/deploy.md).
 */
export async function sendLicenseMail(deps: LicenseMailDeps, licenseId: string): Promise<MailOutcome> {
  const { data: mail } = await deps.data.entities.licenseMail.get({ licenseId }).go({ consistent: true });
  if (!mail) return 'missing';
  if (mail.status === 'sent') return 'sent-before';
  const now = deps.clock.now();
  // Another sender holds it; should it fail, its own message comes back and carries the e-mail on.
  if (mail.status === 'sending' && mail.leaseUntil && Date.parse(mail.leaseUntil) > now.getTime()) return 'in-progress';

  const attempt = mail.attempts + 1;
  const claimed = await writeItem(() =>
    deps.data.entities.licenseMail
      .patch({ licenseId })
      .set({ status: 'sending', attempts: attempt, leaseUntil: new Date(now.getTime() + SEND_LEASE_SECONDS * 1000).toISOString() })
      .where(({ status, attempts }, { eq }) => `${eq(attempts, mail.attempts)} AND NOT ${eq(status, 'sent')}`)
      .go(),
  );
  if (!claimed.written) return 'in-progress';

  const rendered = renderLicenseMail(mail);
  let messageId: string;
  try {
    ({ messageId } = await deps.mailer.send({ fromName: mail.sellerName, to: mail.to, replyTo: mail.replyTo, ...rendered }));
  } catch (error) {
    // Let the claim go at once, so the message's next delivery need not wait out the lease.
    await writeItem(() =>
      deps.data.entities.licenseMail
        .patch({ licenseId })
        .set({ status: 'pending' })
        .remove(['leaseUntil'])
        .where(({ status, attempts }, { eq }) => `${eq(status, 'sending')} AND ${eq(attempts, attempt)}`)
        .go(),
    );
    throw error;
  }
  await writeItem(() =>
    deps.data.entities.licenseMail
      .patch({ licenseId })
      .set({ status: 'sent', sentAt: deps.clock.now().toISOString(), messageId })
      .remove(['leaseUntil'])
      .go(),
  );
  return 'sent';
}
