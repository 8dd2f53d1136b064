import { createHash } from 'node:crypto';
import { escapeHtml as e } from '../../../shared/platform/index.js';
import type { HttpResult } from '../../../shared/platform/http/index.js';

/** How a page shows the vendor: name, logo and accent colour (DECISIONS §25); absent on pages before the vendor is known. */
export type Branding = { name: string; logoUrl: string | null; accentColor: string | null; supportEmail: string | null };

const DEFAULT_ACCENT = '#1a73e8';

/**
 * Plain, accessible styles: system fonts, the vendor's accent on buttons and links, both colour schemes, one column
 * that fits a 375 px phone. The accent is a `#rrggbb` checked when saved, so it is safe in the style sheet.
 */
const styles = (accent: string) => `
:root{--accent:${accent};--fg:#1f2328;--muted:#59636e;--bg:#f6f8fa;--card:#fff;--line:#d1d9e0;--danger:#b42318;--ok:#116329;color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9198a1;--bg:#0d1117;--card:#151b23;--line:#3d444d;--danger:#ff8182;--ok:#56d364}}
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg)}
header{background:var(--card);border-bottom:3px solid var(--accent)}header div,main,footer{max-width:52rem;margin:0 auto;padding:1rem}
header div{display:flex;align-items:center;gap:.75rem;justify-content:space-between;flex-wrap:wrap}.brand{display:flex;align-items:center;gap:.75rem;font-weight:600;font-size:1.15rem}
.brand img{max-height:40px;max-width:160px}h1{font-size:1.5rem;margin:.5rem 0 1rem}h2{font-size:1.2rem;margin:2rem 0 .75rem}
section.card,.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:1rem;margin:0 0 1rem}
a{color:var(--accent)}@media (prefers-color-scheme:dark){a{color:inherit}}
button,.button{display:inline-block;font:inherit;font-weight:600;padding:.5rem 1rem;border-radius:6px;border:1px solid var(--accent);background:var(--accent);color:#fff;cursor:pointer;text-decoration:none}
button.secondary{background:transparent;color:var(--fg);border-color:var(--line)}button.danger{background:transparent;color:var(--danger);border-color:var(--danger)}
button:focus-visible,a:focus-visible,input:focus-visible,select:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
label{display:block;font-weight:600;margin:0 0 .25rem}input,select{font:inherit;padding:.5rem;border:1px solid var(--line);border-radius:6px;background:var(--card);color:var(--fg);max-width:100%}
input[type=email]{width:100%}form.inline{display:inline}.row{display:flex;gap:.5rem;flex-wrap:wrap;align-items:center}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:.5rem 0}dt{color:var(--muted)}dd{margin:0;overflow-wrap:anywhere}
code{font:.95em ui-monospace,SFMono-Regular,Menlo,monospace;overflow-wrap:anywhere}
ul.plain{list-style:none;padding:0;margin:.5rem 0}ul.plain li{display:flex;justify-content:space-between;gap:.5rem;flex-wrap:wrap;align-items:center;padding:.5rem 0;border-top:1px solid var(--line)}
li.download details{flex-basis:100%}summary{cursor:pointer;font-weight:600}summary:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.muted{color:var(--muted)}.notice{border-left:4px solid var(--ok);padding:.75rem 1rem;background:var(--card);margin:0 0 1rem}
.preview-banner{border:2px solid var(--accent);border-radius:8px;padding:.75rem 1rem;background:var(--card);margin:0 0 1rem;font-weight:600}
.status{font-weight:600}.status-active{color:var(--ok)}.status-expired,.status-revoked,.status-suspended{color:var(--danger)}
footer{color:var(--muted);font-size:.9rem}
`;

/** A copy button for license keys: the page's only script, allowed by its hash in the CSP. */
const COPY_SCRIPT = `document.querySelectorAll('button[data-copy]').forEach(function(b){b.hidden=false;b.addEventListener('click',function(){navigator.clipboard.writeText(b.getAttribute('data-copy')).then(function(){b.textContent='Copied';setTimeout(function(){b.textContent='Copy key'},2000)})})})`;

const COPY_SCRIPT_HASH = `sha256-${createHash('sha256').update(COPY_SCRIPT).digest('base64')}`;

/** A whole page: the vendor's header (when known), the content, a support line; never cached, never framed. */
export function htmlPage(statusCode: number, title: string, content: string, branding?: Branding, extras: { cookies?: string[]; headerAction?: string } = {}): HttpResult {
  const brand = branding
    ? `<span class="brand">${branding.logoUrl ? `<img src="${e(branding.logoUrl)}" alt="">` : ''}<span>${e(branding.name)}</span></span>`
    : '<span class="brand"><span>Customer portal</span></span>';
  const support = branding?.supportEmail ? `<p>Questions? Write to <a href="mailto:${e(branding.supportEmail)}">${e(branding.supportEmail)}</a>.</p>` : '';
  const body = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="same-origin">
<title>${e(title)}${branding ? ` · ${e(branding.name)}` : ''}</title><style>${styles(branding?.accentColor ?? DEFAULT_ACCENT)}</style></head>
<body><header><div>${brand}${extras.headerAction ?? ''}</div></header>
<main id="main">${content}</main>
<footer>${support}</footer>
<script>${COPY_SCRIPT}</script>
</body>
</html>
`;
  return {
    statusCode,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': `default-src 'none'; style-src 'unsafe-inline'; img-src https: data:; script-src '${COPY_SCRIPT_HASH}'; frame-ancestors 'none'; base-uri 'none'`,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'same-origin',
    },
    body,
    ...(extras.cookies?.length ? { cookies: extras.cookies } : {}),
  };
}

/** A page that says one thing: a refusal, or what to do next. */
export const messagePage = (statusCode: number, title: string, text: string, branding?: Branding, action = '') =>
  htmlPage(statusCode, title, `<h1>${e(title)}</h1><p>${e(text)}</p>${action}`, branding);
