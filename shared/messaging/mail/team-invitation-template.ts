import { escapeHtml } from '../../platform/index.js';
import { htmlMail, type RenderedMail } from './mail-layout.js';

/**
 * What the invitation says: who invited (their verified address), to whose team, which role, the link that accepts it
 * and until when. `inviter` is absent on invitations queued before it existed.
 */
export type TeamInvitationView = { inviter?: string; team: string; role: string; link: string; expiresAt: string };

/**
 * The e-mail inviting someone to a team (DECISIONS §17): accepting needs an account with this address, verified. The
 * subject and the inbox preview carry nothing the inviter typed, only their verified address (DECISIONS §20): a team's
 * name is free text, and a lure in it must not read as the operator's own words before the e-mail is opened.
 */
export function renderTeamInvitationMail(view: TeamInvitationView): RenderedMail {
  const subject = view.inviter ? `${view.inviter} invited you to a team` : "You're invited to a team";
  const ask = `${view.inviter ?? 'Someone'} invites you to the team "${view.team}" on their licensing account, as ${view.role}. Accept by opening this link:`;
  const validity = `The link works until ${view.expiresAt}. Sign in (or register) with this e-mail address, verified, to accept.`;
  const notYou = "Not expecting this? Ignore this e-mail: nothing happens unless the link is opened.";
  const text = [ask, '', `    ${view.link}`, '', validity, '', notYou, ''].join('\n');
  const e = escapeHtml;
  const html = htmlMail({
    title: subject,
    preheader: `${view.inviter ?? 'Someone'} invited you as ${view.role}`,
    main: `<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3;color:#202124">${e(subject)}</h1>
<p style="margin:0 0 16px">${e(ask)}</p>
<p style="margin:0 0 16px"><a href="${e(view.link)}" style="display:inline-block;padding:12px 20px;background:#1a73e8;color:#ffffff;border-radius:6px;text-decoration:none;font-weight:600">Accept the invitation</a></p>
<p style="margin:0 0 16px;font-size:14px;color:#5f6368;word-break:break-all">${e(view.link)}</p>
<p style="margin:0 0 16px">${e(validity)}</p>`,
    footer: `<p style="margin:0">${e(notYou)}</p>`,
  });
  return { subject, text, html };
}
