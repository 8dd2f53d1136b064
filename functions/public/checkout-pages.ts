import { AppError, escapeHtml } from '../../shared/platform/index.js';
import { header, type HttpEvent, type HttpResult } from '../../shared/platform/http/index.js';

/**
 * What a buyer's browser sees when a checkout link cannot sell (DECISIONS §22): a page in words, with the status and
 * headers the JSON answer has; a caller that does not ask for HTML keeps the JSON error.
 */
export const wantsHtml = (event: HttpEvent) => /\btext\/html\b/i.test(header(event, 'accept') ?? '');

const page = (title: string, text: string) => `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:2rem 1rem;color:#1f2328;background:#fff}main{max-width:34rem;margin:0 auto}@media (prefers-color-scheme:dark){body{color:#e6edf3;background:#0d1117}}</style></head>
<body><main><h1>${title}</h1>${text}</main></body>
</html>
`;

/** The buyer's words for each refusal: what happened, and what they can do. */
function wordsFor(error: AppError): { title: string; text: string } {
  if (error.statusCode === 429) return { title: 'Too many attempts', text: 'Please wait a minute, then open the checkout link again.' };
  if (error.statusCode >= 500) return { title: 'Checkout is unavailable right now', text: 'Please try again in a few minutes.' };
  switch (error.message) {
    case 'Checkout is not available for this product':
      return { title: 'This product cannot be bought online yet', text: 'The seller has not set up payments for it. Please contact the seller.' };
    case 'Plan not found':
      return { title: 'This plan is not on sale', text: 'The plan in this link is not offered any more. Please ask the seller for a current link.' };
    case 'Invalid public_key':
      return { title: 'This checkout link is not valid', text: 'It does not name a product on sale. Please ask the seller for a current link.' };
    default:
      return { title: 'This checkout link is not valid', text: `${error.message}. Please ask the seller for a current link.` };
  }
}

export function checkoutRefusalPage(error: AppError): HttpResult {
  const { title, text } = wordsFor(error);
  return {
    statusCode: error.statusCode,
    headers: { ...error.headers, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', vary: 'Accept' },
    body: page(escapeHtml(title), `<p>${escapeHtml(text)}</p>`),
  };
}

/** Runs a checkout route, answering its refusals as a page when a browser asked for one. */
export async function forBrowsers(event: HttpEvent, run: () => Promise<HttpResult>): Promise<HttpResult> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof AppError && wantsHtml(event)) return checkoutRefusalPage(error);
    throw error;
  }
}
