import { escapeHtml } from '../../platform/index.js';

/** An e-mail's two parts and subject, as the mailer sends them. */
export type RenderedMail = { subject: string; text: string; html: string };

/**
 * The HTML frame every e-mail of the service shares: tables with inline styles, which is what Outlook, Gmail and
 * Apple Mail all render alike, a hidden preview line, and the e-mail's own `main` and `footer` (HTML the caller has
 * escaped) in one centred card. `title` and `preheader` are escaped here.
 */
export function htmlMail(parts: { title: string; preheader: string; main: string; footer: string }): string {
  const e = escapeHtml;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${e(parts.title)}</title>
</head>
<body style="margin:0;padding:0;background:#f4f5f7;font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;font-size:16px;line-height:1.5;color:#202124">
<div style="display:none;max-height:0;overflow:hidden">${e(parts.preheader)}</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:#f4f5f7">
<tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:560px;background:#ffffff;border-radius:8px">
<tr><td style="padding:32px 32px 8px">
${parts.main}
</td></tr>
<tr><td style="padding:8px 32px 32px;font-size:14px;color:#5f6368">
${parts.footer}
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
}
