import * as z from 'zod/mini';
import { LICENSE_MESSAGES as M } from '../../../shared/licensing/index.js';
import { defineOperations, EX, named, type Security } from '../../../shared/platform/openapi/index.js';
import { RATE_LIMITS } from '../../../shared/platform/rate-limits/index.js';
import { PLAN_CHANGE_ERRORS } from '../../management/routes/subscriptions.openapi.js';
import { PREVIEW_READ_ONLY } from './sign-in-pages.js';

const page = (title: string) => `<!doctype html><html lang="en">…<h1>${title}</h1>…</html>`;
const SESSION_ENDED = 'Your portal session has ended; open the portal link again to sign in';
const backToPage = {
  description: 'Back to the page (`/portal?public_key=…&done=…`), which says what was done',
  headers: { location: { description: 'The portal page', required: true }, 'cache-control': { description: '`no-store`', required: true } },
};
const session: Security = [['portalSession']];
const actionErrors = (more: Partial<Record<number, string[]>> = {}) => ({
  ...more,
  401: [SESSION_ENDED],
  403: ['Origin not allowed', PREVIEW_READ_ONLY, ...(more[403] ?? [])],
  404: [...(more[404] ?? []), 'Portal not found'],
});
const actionNote =
  'A form post from the portal page (`application/x-www-form-urlencoded`, or JSON), answered 303 back to the page; a refusal is an HTML page ' +
  'in words with the status below. Only the signed-in customer\'s own items: another customer\'s or vendor\'s id is 404, as an unknown one; ' +
  'once the vendor turns the portal off, 404 `Portal not found`. In a vendor\'s preview session (`GET /portal/preview`) every change is 403 ' +
  `\`${PREVIEW_READ_ONLY}\`, and nothing changes.`;

export const hostedPortalOperations = defineOperations({
  'GET /portal': {
    summary: 'The hosted customer portal page',
    description:
      'The page a vendor links to (DECISIONS §25): the `public_key` names the vendor and the product it opens on. Without a portal session ' +
      'of this vendor it asks for an e-mail (sign-in by link); with one it shows the customer\'s licenses (key, product, plan, status, ' +
      'expiry, seats used) with their sites and machines, downloads, subscriptions (change plan, cancel at period end and undo, update ' +
      'the card at Stripe) and payments with their invoices. While the vendor\'s portal is off: 404.',
    security: [[]],
    queryExamples: { public_key: EX.publicKey },
    responses: { 200: { description: 'The sign-in form, or the customer\'s account', html: page('Your account') } },
    errorPage: true,
    errors: { 400: ['public_key is required'], 404: [M.invalidPublicKey, 'Portal not found'] },
  },
  'POST /public/v1/portal/sign-in': {
    summary: 'E-mail a portal sign-in link',
    description:
      'Answers 202 whatever the address, so nobody learns who is a customer; only an e-mail with a license or customer record at the ' +
      'vendor gets the one-time link (`{base}/portal/sign-in?token=…`, 15 minutes, once). While the vendor\'s portal is off: 404. ' +
      'A form post (`application/x-www-form-urlencoded`, the portal page\'s) is answered 303 back to the page instead. Limited per ' +
      'address and per e-mail.',
    security: [[]],
    rateLimits: [RATE_LIMITS.portalSignInAddress, RATE_LIMITS.portalSignInEmail],
    requestBody: { examples: { signIn: { email: EX.email, public_key: EX.publicKey } } },
    responses: {
      202: {
        description: 'Accepted (sent when the address is a customer\'s)',
        body: named('PortalSignInAccepted', z.object({ message: z.string() })),
        examples: { accepted: { message: 'If this address has licenses here, a sign-in link is on its way' } },
      },
      303: { ...backToPage, description: 'A form post from the portal page (`application/x-www-form-urlencoded`): back to the page, which says a link is on its way' },
    },
    errorPage: true,
    errors: { 400: ['email is required', 'email must be a valid e-mail address', 'public_key is required'], 404: [M.invalidPublicKey, 'Portal not found'] },
  },
  'GET /portal/sign-in': {
    summary: 'The page of an e-mailed sign-in link',
    description: 'Shows one "Sign in" button (a POST to the same address), so a mail scanner that follows the link uses nothing up. A used or expired link: 400, a page saying so.',
    security: [[]],
    queryExamples: { token: 'k3j5h2…' },
    responses: { 200: { description: 'The confirm page', html: page('Sign in as buyer@example.com') } },
    errorPage: true,
    errors: { 400: ['Invalid or expired sign-in link'], 404: ['Portal not found'] },
  },
  'POST /portal/sign-in': {
    summary: 'Sign in with the link',
    description: 'Uses the link (once: a conditional delete while its 15 minutes last), sets the `portal_session` cookie and answers 303 to the portal page.',
    security: [[]],
    queryExamples: { token: 'k3j5h2…' },
    responses: {
      303: {
        description: 'Signed in: to the portal page',
        headers: { location: { description: 'The portal page', required: true }, 'set-cookie': { description: '`portal_session=…; Max-Age=604800; Path=/portal; HttpOnly; SameSite=Lax` (+ `Secure` on https)', required: true } },
      },
    },
    errorPage: true,
    errors: { 400: ['Invalid or expired sign-in link'], 403: ['Origin not allowed'] },
  },
  'GET /portal/preview': {
    summary: 'Open a vendor\'s "View as customer" link',
    description:
      'The one-time link of `POST /api/customers/{id}/portal-preview` (5 minutes), taken at once (the vendor opened it from the ' +
      'dashboard: no mail scanner sees it): sets the `portal_session` cookie of a read-only preview session as that customer (1 hour) ' +
      'and answers 303 to the portal page, which shows a banner saying so and no buttons that change anything. A used or expired ' +
      'link: 400, the page of a used sign-in link. An e-mailed sign-in link does not open here, nor a preview link at `/portal/sign-in`.',
    security: [[]],
    queryExamples: { token: 'k3j5h2…' },
    responses: {
      303: {
        description: 'In the preview: to the portal page',
        headers: {
          location: { description: 'The portal page of the product the link opens on', required: true },
          'set-cookie': { description: '`portal_session=…; Max-Age=3600; Path=/portal; HttpOnly; SameSite=Lax` (+ `Secure` on https)', required: true },
        },
      },
    },
    errorPage: true,
    errors: { 400: ['Invalid or expired sign-in link'] },
  },
  'POST /portal/sign-out': {
    summary: 'Sign out of the portal',
    description: 'Ends the session and clears the cookie; 303 to the portal page (or a page saying so when there was no session).',
    security: session,
    responses: { 200: { description: 'No session: signed out', html: page('You are signed out') }, 303: backToPage },
    errorPage: true,
    errors: { 403: ['Origin not allowed'] },
  },
  'POST /portal/activations/{id}/deactivate': {
    summary: 'Deactivate one of the customer\'s sites or machines',
    description: `Frees the seat, as the vendor\'s deactivate does. ${actionNote}`,
    security: session,
    responses: { 303: backToPage },
    errorPage: true,
    errors: actionErrors(),
  },
  'POST /portal/subscriptions/{id}/change-plan': {
    summary: 'Change the customer\'s plan',
    description: `Field \`planId\`: another active public plan of the subscription's product, with the rules of DECISIONS §15 and §20 (as \`POST /v1/portal/subscriptions/{id}/change-plan\`). ${actionNote}`,
    security: session,
    requestBody: { examples: { change: { planId: EX.planId } } },
    responses: { 303: backToPage },
    errorPage: true,
    errors: actionErrors({ ...PLAN_CHANGE_ERRORS, 400: ['planId is required', ...PLAN_CHANGE_ERRORS[400]] }),
  },
  'POST /portal/subscriptions/{id}/cancel': {
    summary: 'Cancel at period end',
    description: `Stripe first (\`cancel_at_period_end=true\`), then our record. ${actionNote}`,
    security: session,
    responses: { 303: backToPage },
    errorPage: true,
    errors: actionErrors({ 400: ['No payment provider is connected', 'Subscription is not billed through the payment provider'], 502: ['Payment provider unavailable'] }),
  },
  'POST /portal/subscriptions/{id}/resume': {
    summary: 'Undo a cancellation',
    description: `Before the period ends: Stripe first (\`cancel_at_period_end=false\`), then our record. ${actionNote}`,
    security: session,
    responses: { 303: backToPage },
    errorPage: true,
    errors: actionErrors({ 400: ['No payment provider is connected', 'Subscription is not billed through the payment provider'], 502: ['Payment provider unavailable'] }),
  },
  'POST /portal/subscriptions/{id}/billing-portal': {
    summary: 'Update the card at Stripe',
    description: `Opens a Stripe billing-portal session for the subscription's Stripe customer, returning to the portal page. ${actionNote}`,
    security: session,
    responses: {
      303: { description: "To Stripe's billing portal", headers: { location: { description: 'The billing-portal session URL', required: true }, 'cache-control': { description: '`no-store`', required: true } } },
    },
    errorPage: true,
    errors: actionErrors({ 400: ['No payment provider is connected', 'Subscription is not billed through the payment provider'], 502: ['Payment provider unavailable'] }),
  },
});
