import { escapeHtml } from '../../platform/index.js';
import { longDate } from './long-date.js';
import { htmlMail, type RenderedMail } from './mail-layout.js';

/** What the buyer's e-mail says: the license as it was issued, and who sold it. */
export type LicenseMailView = {
  productName: string;
  licenseKey: string;
  seats: number;
  /** ISO timestamp; absent for a lifetime license. */
  expiresAt?: string;
  renews: boolean;
  customerName?: string;
  sellerName?: string;
  replyTo?: string;
  /** A Composer-enabled product (DECISIONS §24): its package (`vendor/slug`) and the repository's address. */
  composerPackage?: string;
  composerRepository?: string;
  /** The vendor's hosted customer portal, when it is on: where the buyer manages sites, downloads and billing. */
  portalUrl?: string;
};

/** How to install with Composer, as steps each with the text to paste: for a Composer-enabled product only. */
function composerSteps(view: LicenseMailView): { step: string; code: string }[] {
  if (!view.composerPackage || !view.composerRepository) return [];
  const host = new URL(view.composerRepository).host;
  return [
    { step: 'Add the repository to your composer.json:', code: JSON.stringify({ repositories: [{ type: 'composer', url: view.composerRepository }] }, null, 2) },
    {
      step: "Put your license key in auth.json beside it (the password can be your site's URL):",
      code: JSON.stringify({ 'http-basic': { [host]: { username: view.licenseKey, password: 'https://your-site.example' } } }, null, 2),
    },
    { step: 'Then install it:', code: `composer require ${view.composerPackage}` },
  ];
}

/** The line about time: a renewal date, an end date, or none for a lifetime license. */
function termLine(view: LicenseMailView): { label: string; value: string } {
  if (!view.expiresAt) return { label: 'Expires', value: 'Never (lifetime license)' };
  const date = longDate(view.expiresAt);
  return view.renews ? { label: 'Renews on', value: `${date} (your subscription renews it)` } : { label: 'Valid until', value: date };
}

export const PORTAL_LINE = 'Manage your sites, downloads and billing in the customer portal';

const seatsText = (seats: number) => (seats === 1 ? '1 site' : `${seats} sites`);

/**
 * The license e-mail in two parts: plain text for clients that show only that (and for spam filters, which
 * distrust HTML-only mail), and HTML in the service's frame (shared/messaging/mail/mail-layout.ts). Every value from the vendor
 * or the buyer is escaped.
 */
export function renderLicenseMail(view: LicenseMailView): RenderedMail {
  const term = termLine(view);
  const seller = view.sellerName?.trim() || undefined;
  const subject = `Your ${view.productName} license key`;
  const greeting = view.customerName?.trim() ? `Hi ${view.customerName.trim()},` : 'Hello,';
  const thanks = `Thank you for buying ${view.productName}${seller ? ` from ${seller}` : ''}. Here is your license key:`;
  const steps = [
    `Install ${view.productName} on your site.`,
    'Open its license settings and paste the key above, then activate.',
    `Each site you activate takes one seat (you have ${seatsText(view.seats)}); deactivate a site to move its seat to another.`,
  ];
  const help = view.replyTo
    ? `Questions? Reply to this e-mail and it reaches ${seller ?? 'us'} (${view.replyTo}).`
    : 'Keep this e-mail: it is your record of the purchase.';

  const composer = composerSteps(view);
  const text = [
    greeting,
    '',
    thanks,
    '',
    `    ${view.licenseKey}`,
    '',
    `Seats: ${seatsText(view.seats)}`,
    `${term.label}: ${term.value}`,
    '',
    'How to activate',
    ...steps.map((step, i) => `${i + 1}. ${step}`),
    '',
    ...(composer.length
      ? ['Install with Composer', ...composer.flatMap(({ step, code }, i) => [`${i + 1}. ${step}`, ...code.split('\n').map((line) => `    ${line}`)]), '']
      : []),
    ...(view.portalUrl ? [`${PORTAL_LINE}:`, `    ${view.portalUrl}`, ''] : []),
    help,
    ...(seller ? ['', `— ${seller}`] : []),
    '',
  ].join('\n');

  const e = escapeHtml;
  const row = (label: string, value: string) =>
    `<tr><td style="padding:4px 16px 4px 0;color:#5f6368;white-space:nowrap">${e(label)}</td><td style="padding:4px 0;color:#202124">${e(value)}</td></tr>`;
  const html = htmlMail({
    title: subject,
    preheader: `Your license key for ${view.productName}: ${view.licenseKey}`,
    main: `<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3;color:#202124">${e(view.productName)}</h1>
<p style="margin:0 0 12px">${e(greeting)}</p>
<p style="margin:0 0 16px">${e(thanks)}</p>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0"><tr>
<td style="padding:16px;background:#f1f3f4;border:1px solid #dadce0;border-radius:6px;font-family:Menlo,Consolas,'Courier New',monospace;font-size:18px;letter-spacing:1px;word-break:break-all;color:#202124">${e(view.licenseKey)}</td>
</tr></table>
<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:16px 0 8px;font-size:15px">
${row('Seats', seatsText(view.seats))}
${row(term.label, term.value)}
</table>
<h2 style="margin:24px 0 8px;font-size:17px;color:#202124">How to activate</h2>
<ol style="margin:0 0 16px;padding-left:20px">
${steps.map((step) => `<li style="margin:0 0 6px">${e(step)}</li>`).join('\n')}
</ol>${
      composer.length
        ? `
<h2 style="margin:24px 0 8px;font-size:17px;color:#202124">Install with Composer</h2>
<ol style="margin:0 0 16px;padding-left:20px">
${composer.map(({ step, code }) => `<li style="margin:0 0 6px">${e(step)}<pre style="margin:6px 0 0;padding:8px;background:#f1f3f4;border-radius:4px;font-size:13px;white-space:pre-wrap;word-break:break-all">${e(code)}</pre></li>`).join('\n')}
</ol>`
        : ''
    }${view.portalUrl ? `\n<p style="margin:0 0 16px">${e(PORTAL_LINE)}: <a href="${e(view.portalUrl)}">${e(view.portalUrl)}</a></p>` : ''}`,
    footer: `<p style="margin:0">${e(help)}</p>${seller ? `\n<p style="margin:12px 0 0">— ${e(seller)}</p>` : ''}`,
  });
  return { subject, text, html };
}
