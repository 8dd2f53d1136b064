import { renderLicenseMail } from './license-mail-template.js';
import { sendOnce, type MailDeps, type MailOutcome } from './send-once.js';

export { SEND_LEASE_SECONDS } from './send-once.js';
export type LicenseMailDeps = MailDeps;

/** Sends a license's e-mail to its buyer once (shared/messaging/mail/send-once.ts), from the vendor's name, replies to the vendor. */
export function sendLicenseMail(deps: MailDeps, licenseId: string): Promise<MailOutcome> {
  const { licenseMail } = deps.data.entities;
  return sendOnce(
    deps,
    { read: async () => (await licenseMail.get({ licenseId }).go({ consistent: true })).data, patch: () => licenseMail.patch({ licenseId }) },
    (mail) => ({ fromName: mail.sellerName, to: mail.to, replyTo: mail.replyTo, ...renderLicenseMail(mail) }),
  );
}
