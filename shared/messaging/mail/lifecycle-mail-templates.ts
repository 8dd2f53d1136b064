import { escapeHtml } from '../../platform/index.js';
import { longDate } from './long-date.js';
import { htmlMail, type RenderedMail } from './mail-layout.js';
import { PORTAL_LINE } from './license-mail-template.js';

const e = escapeHtml;
const greetingOf = (name: string | undefined) => (name?.trim() ? `Hi ${name.trim()},` : 'Hello,');
const daysText = (days: number) => (days === 1 ? '1 day' : `${days} days`);
const paragraph = (text: string) => `<p style="margin:0 0 16px">${e(text)}</p>`;
const button = (href: string, label: string) =>
  `<p style="margin:0 0 16px"><a href="${e(href)}" style="display:inline-block;padding:12px 20px;background:#1a73e8;color:#ffffff;border-radius:6px;text-decoration:none;font-weight:600">${e(label)}</a></p>
<p style="margin:0 0 16px;font-size:14px;color:#5f6368;word-break:break-all">${e(href)}</p>`;
const keyBox = (key: string) =>
  `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 16px"><tr>
<td style="padding:16px;background:#f1f3f4;border:1px solid #dadce0;border-radius:6px;font-family:Menlo,Consolas,'Courier New',monospace;font-size:18px;letter-spacing:1px;word-break:break-all;color:#202124">${e(key)}</td>
</tr></table>`;
/** The vendor's hosted customer portal, when it is on (DECISIONS §25): as text lines, and as HTML. */
const portalText = (url: string | undefined) => (url ? [`${PORTAL_LINE}:`, `    ${url}`, ''] : []);
const portalHtml = (url: string | undefined) => (url ? `<p style="margin:0 0 16px">${e(PORTAL_LINE)}: <a href="${e(url)}">${e(url)}</a></p>` : '');
const signature = (seller: string | undefined) => (seller?.trim() ? `<p style="margin:0">— ${e(seller.trim())}</p>` : '');

/** What a renewal reminder says (DECISIONS §15): which license, when it ends, and where to renew. */
export type RenewalReminderView = {
  productName: string;
  licenseKey: string;
  expiresAt: string;
  /** Whole days left when it was queued (at least 1). */
  daysLeft: number;
  /** The checkout of the license's plan; absent for a license issued without one. */
  renewalUrl?: string;
  /** The vendor's hosted customer portal, when it is on. */
  portalUrl?: string;
  customerName?: string;
  sellerName?: string;
};

export function renderRenewalReminderMail(view: RenewalReminderView): RenderedMail {
  const subject = `Your ${view.productName} license expires in ${daysText(view.daysLeft)}`;
  const greeting = greetingOf(view.customerName);
  const ends = `Your ${view.productName} license ${view.licenseKey} expires on ${longDate(view.expiresAt)} and will not renew on its own.`;
  const after = 'After that it stops receiving updates, and sites using it may show it as expired.';
  const ask = view.renewalUrl ? 'Renew it here:' : `To keep it, contact ${view.sellerName?.trim() || 'the seller'} to renew it.`;
  const text = [
    greeting, '', ends, after, '', ask, ...(view.renewalUrl ? ['', `    ${view.renewalUrl}`] : []), '',
    ...portalText(view.portalUrl),
    ...(view.sellerName?.trim() ? [`— ${view.sellerName.trim()}`, ''] : []),
  ].join('\n');
  const html = htmlMail({
    title: subject,
    preheader: `${view.productName}: ${daysText(view.daysLeft)} left`,
    main: `<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3;color:#202124">${e(subject)}</h1>
<p style="margin:0 0 12px">${e(greeting)}</p>
${paragraph(ends)}
${paragraph(after)}
${view.renewalUrl ? button(view.renewalUrl, 'Renew my license') : paragraph(ask)}${portalHtml(view.portalUrl)}`,
    footer: signature(view.sellerName),
  });
  return { subject, text, html };
}

/** What a transferred license's new owner is told: the license is now theirs, with its key. */
export type LicenseTransferredView = {
  productName: string;
  licenseKey: string;
  seats: number;
  /** Absent for a lifetime license. */
  expiresAt?: string;
  /** The vendor's hosted customer portal, when it is on. */
  portalUrl?: string;
  customerName?: string;
  sellerName?: string;
};

export function renderLicenseTransferredMail(view: LicenseTransferredView): RenderedMail {
  const subject = `A ${view.productName} license was transferred to you`;
  const greeting = greetingOf(view.customerName);
  const intro = `A license for ${view.productName} is now yours. Here is its key:`;
  const term = view.expiresAt ? `Valid until ${longDate(view.expiresAt)}.` : 'It does not expire.';
  const seats = `It may be active on ${view.seats === 1 ? '1 site' : `${view.seats} sites`} at once: paste the key in the plugin's license settings and activate.`;
  const text = [
    greeting, '', intro, '', `    ${view.licenseKey}`, '', term, seats, '',
    ...portalText(view.portalUrl),
    ...(view.sellerName?.trim() ? [`— ${view.sellerName.trim()}`, ''] : []),
  ].join('\n');
  const html = htmlMail({
    title: subject,
    preheader: `Your license key for ${view.productName}: ${view.licenseKey}`,
    main: `<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3;color:#202124">${e(subject)}</h1>
<p style="margin:0 0 12px">${e(greeting)}</p>
${paragraph(intro)}
${keyBox(view.licenseKey)}
${paragraph(term)}
${paragraph(seats)}${portalHtml(view.portalUrl)}`,
    footer: signature(view.sellerName),
  });
  return { subject, text, html };
}
