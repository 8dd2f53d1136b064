import type { MAIL_KINDS } from '../../platform/data/index.js';
import { renderEmailVerificationMail } from './email-verification-template.js';
import { renderLicenseTransferredMail, renderRenewalReminderMail } from './lifecycle-mail-templates.js';
import type { RenderedMail } from './mail-layout.js';
import { renderPortalSignInMail } from './portal-sign-in-template.js';
import { renderTeamInvitationMail } from './team-invitation-template.js';

export type MailKind = (typeof MAIL_KINDS)[number];

/**
 * Every kind of queued e-mail (the `mail` item; the license e-mail has its own): its template, which renders the
 * item's `content`, and how long the item is kept. A kind is one entry here and its name in MAIL_KINDS; queuing,
 * the stream, the queue and sending once are shared.
 */
export const MAIL_TEMPLATES = {
  /** Outlives its link (24 h) by nothing: an unsent verification e-mail is of no use once its token has expired. */
  emailVerification: { render: renderEmailVerificationMail, retentionSeconds: 24 * 3600 },
  /** As long as its invitation (7 days). */
  teamInvitation: { render: renderTeamInvitationMail, retentionSeconds: 7 * 24 * 3600 },
  /** Of no use once the license has expired; a week covers every reminder day's sending. */
  renewalReminder: { render: renderRenewalReminderMail, retentionSeconds: 7 * 24 * 3600 },
  /** Holds a license key, as the license e-mail does: kept as long (30 days). */
  licenseTransferred: { render: renderLicenseTransferredMail, retentionSeconds: 30 * 24 * 3600 },
  /** As long as its link (15 minutes). */
  portalSignIn: { render: renderPortalSignInMail, retentionSeconds: 15 * 60 },
} satisfies { [K in MailKind]: { render: (content: never) => RenderedMail; retentionSeconds: number } };

/** What a kind's e-mail says, as its item's `content` holds it. */
export type MailContent<K extends MailKind> = Parameters<(typeof MAIL_TEMPLATES)[K]['render']>[0];
