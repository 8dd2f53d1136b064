import { escapeHtml } from '../../platform/index.js';
import { htmlMail, type RenderedMail } from './mail-layout.js';

/** What the portal sign-in e-mail says: whose portal, and the one-time link. */
export type PortalSignInView = { vendorName: string; email: string; link: string; validMinutes: number };

/**
 * The one-time link to a vendor's hosted customer portal (DECISIONS §25). The link opens a page with one button, so a
 * mail scanner that follows links does not use it up.
 */
export function renderPortalSignInMail(view: PortalSignInView): RenderedMail {
  const subject = `Sign in to ${view.vendorName}`;
  const ask = `Open this link to see the licenses, downloads and invoices of ${view.email} at ${view.vendorName}:`;
  const validity = `The link works once, for ${view.validMinutes} minutes.`;
  const notYou = "Didn't ask to sign in? Ignore this e-mail: nobody can sign in without the link.";
  const text = ['Hello,', '', ask, '', `    ${view.link}`, '', validity, '', notYou, ''].join('\n');

  const e = escapeHtml;
  const html = htmlMail({
    title: subject,
    preheader: `Your sign-in link for ${view.vendorName}`,
    main: `<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3;color:#202124">${e(subject)}</h1>
<p style="margin:0 0 16px">${e(ask)}</p>
<p style="margin:0 0 16px"><a href="${e(view.link)}" style="display:inline-block;padding:12px 20px;background:#1a73e8;color:#ffffff;border-radius:6px;text-decoration:none;font-weight:600">Sign in</a></p>
<p style="margin:0 0 16px;font-size:14px;color:#5f6368;word-break:break-all">${e(view.link)}</p>
<p style="margin:0 0 16px">${e(validity)}</p>`,
    footer: `<p style="margin:0">${e(notYou)}</p>`,
  });
  return { subject, text, html };
}
