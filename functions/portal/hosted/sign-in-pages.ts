import { type AppError, escapeHtml as e } from '../../../shared/platform/index.js';
import { type Branding, htmlPage, messagePage } from './page-layout.js';

/** What the page says after a buyer's change (`done=` on the page's address). */
export const DONE = {
  deactivated: 'The site was deactivated: its seat is free again.',
  planChanged: 'Your plan was changed.',
  cancelled: 'Your subscription will end at the close of the current period.',
  resumed: 'Your subscription will renew as before.',
} as const;

/** What every change posted in a vendor's preview of the portal is answered (403): the preview shows, never changes. */
export const PREVIEW_READ_ONLY = "This is a preview: changes are the customer's to make";

/** The page's sign-in: one e-mail field; a plain form (no script), answered by a redirect back here. */
export function signInPage(branding: Branding, publicKey: string, sent: boolean) {
  const notice = sent
    ? '<p class="notice" role="status">Check your inbox: if this address has licenses here, we sent it a sign-in link. It works once, for 15 minutes.</p>'
    : '';
  const content = `<h1>Sign in to manage your licenses</h1>${notice}
<section class="card"><form method="post" action="/public/v1/portal/sign-in">
<input type="hidden" name="public_key" value="${e(publicKey)}">
<label for="email">Your e-mail address</label>
<p class="muted" id="email-hint">The one you bought with. We will e-mail you a link to sign in; no password needed.</p>
<input id="email" name="email" type="email" autocomplete="email" required aria-describedby="email-hint">
<p><button type="submit">E-mail me a sign-in link</button></p>
</form></section>`;
  return htmlPage(200, 'Sign in', content, branding);
}

/**
 * The page the e-mailed link opens: one button that signs in (a POST to the same address). A mail scanner that follows
 * the link gets this page and uses nothing up.
 */
export function confirmPage(branding: Branding, email: string) {
  const content = `<h1>Sign in as ${e(email)}</h1>
<section class="card"><form method="post"><p>Continue to see your licenses, downloads and invoices.</p><button type="submit">Sign in</button></form></section>`;
  return htmlPage(200, 'Sign in', content, branding);
}

export const signedOutPage = () => messagePage(200, 'You are signed out', 'Open the portal link from the seller to sign in again.');

/** A refusal in the buyer's words: what happened, and what to do. */
export function refusalPage(error: AppError, branding?: Branding) {
  if (error.statusCode === 429) return messagePage(429, 'Too many attempts', 'Please wait a few minutes, then try again.', branding);
  if (error.message === 'Invalid or expired sign-in link') {
    return messagePage(400, 'This sign-in link has expired or was already used', 'A link works once, for 15 minutes. Open the portal again and ask for a new one.', branding);
  }
  if (error.message === PREVIEW_READ_ONLY) return messagePage(403, 'This is a preview', `${PREVIEW_READ_ONLY}. Nothing was changed.`, branding);
  if (error.statusCode === 401) return messagePage(401, 'Please sign in again', `${error.message}.`, branding);
  if (error.statusCode === 404 && error.message === 'Portal not found') return messagePage(404, 'This portal is not available', 'The seller has not opened a customer portal. Please contact the seller.');
  if (error.statusCode === 404 && error.message === 'Invalid public_key') return messagePage(404, 'This portal link is not valid', 'It does not name a product. Please ask the seller for a current link.');
  return messagePage(error.statusCode, 'That did not work', `${error.message}. Go back to try again.`, branding);
}
