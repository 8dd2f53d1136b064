import { escapeHtml } from '../../platform/index.js';
import { htmlMail, type RenderedMail } from './mail-layout.js';

/** What the verification e-mail says: whose account, and the link that confirms its address. */
export type EmailVerificationView = { name: string; email: string; link: string; validHours: number };

/**
 * The e-mail that confirms an account's address (DECISIONS §13): the link, how long it works, and what to do when the
 * reader did not register (nothing: the account stays unverified, and a Google or GitHub sign-in with the address
 * takes it over).
 */
export function renderEmailVerificationMail(view: EmailVerificationView): RenderedMail {
  const subject = 'Confirm your e-mail address';
  const greeting = view.name.trim() ? `Hi ${view.name.trim()},` : 'Hello,';
  const ask = `Confirm that ${view.email} is your address for your licensing account by opening this link:`;
  const validity = `The link works once, for ${view.validHours} hours. You can ask for a new one from the dashboard.`;
  const notYou = "Didn't create an account? Ignore this e-mail: nothing is confirmed unless the link is opened.";
  const text = [greeting, '', ask, '', `    ${view.link}`, '', validity, '', notYou, ''].join('\n');

  const e = escapeHtml;
  const html = htmlMail({
    title: subject,
    preheader: `Confirm ${view.email} for your licensing account`,
    main: `<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3;color:#202124">${e(subject)}</h1>
<p style="margin:0 0 12px">${e(greeting)}</p>
<p style="margin:0 0 16px">${e(ask)}</p>
<p style="margin:0 0 16px"><a href="${e(view.link)}" style="display:inline-block;padding:12px 20px;background:#1a73e8;color:#ffffff;border-radius:6px;text-decoration:none;font-weight:600">Confirm my address</a></p>
<p style="margin:0 0 16px;font-size:14px;color:#5f6368;word-break:break-all">${e(view.link)}</p>
<p style="margin:0 0 16px">${e(validity)}</p>`,
    footer: `<p style="margin:0">${e(notYou)}</p>`,
  });
  return { subject, text, html };
}
