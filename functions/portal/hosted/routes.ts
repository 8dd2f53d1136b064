import { serialize } from 'cookie';
import * as z from 'zod/mini';
import { AppError, BadRequestError, type Config, type Deps, ForbiddenError, lazily, NotFoundError, PayloadTooLargeError, UnauthorizedError } from '../../../shared/platform/index.js';
import {
  allowedOrigins, assertOrigin, checkIdShape, clientNetwork, header, type HttpEvent, type HttpResult, type IdKind, json, jsonBody, lazyInput, parseInput, query, rawBody,
  readCookie, redirect, requestBaseUrl, type Route,
} from '../../../shared/platform/http/index.js';
import { normalizeEmail } from '../../../shared/customers/index.js';
import { LICENSE_MESSAGES } from '../../../shared/licensing/index.js';
import { type PaymentDeps, PLAN_NOT_FOUND } from '../../../shared/billing/index.js';
import {
  billingPortalUrl, cancelSubscription, changePortalPlan, deactivatePortalActivation, endPortalSession, getPortalSettings, type LinkSecret, portalAccount, PORTAL_NOT_FOUND, PORTAL_SESSION_SECONDS,
  type PortalSession, portalSessionOf, portalSite, type PortalSite, PREVIEW_SESSION_SECONDS, requestSignIn, resumeSubscription, signInLinkOf, SUBSCRIPTION_NOT_FOUND, takePreview, takeSignIn,
  vendorName,
} from '../../../shared/portal/index.js';
import { RATE_LIMITS, type RateLimiter } from '../../../shared/platform/rate-limits/index.js';
import { accountPage } from './account-page.js';
import { confirmPage, DONE, PREVIEW_READ_ONLY, refusalPage, signedOutPage, signInPage } from './sign-in-pages.js';
import type { Branding } from './page-layout.js';

type HostedDeps = Deps<Config<'links'>> & PaymentDeps;

export const PORTAL_COOKIE = 'portal_session';
export const SIGN_IN_SENT = 'If this address has licenses here, a sign-in link is on its way';
const FORM_LIMIT_BYTES = 16 * 1024;
export const INVALID_LINK = 'Invalid or expired sign-in link';

const schemas = lazily(() => {
  const publicKey = z.string({ error: 'public_key is required' }).check(z.trim(), z.minLength(1, 'public_key is required'), z.maxLength(128, 'public_key must be at most 128 characters'));
  /** Unknown fields are ignored, as on the rest of the public API. */
  const signInBody = z.object({
    email: z.string({ error: 'email is required' }).check(
      z.trim(),
      z.minLength(1, 'email is required'),
      z.maxLength(254, 'email must be at most 254 characters'),
      z.email({ error: 'email must be a valid e-mail address' }),
    ),
    public_key: publicKey,
  });
  const pageQuery = z.object({ public_key: publicKey, sent: z.optional(z.string()), done: z.optional(z.string()) });
  const linkQuery = z.object({ token: z.optional(z.string()) });
  const planBody = z.object({ planId: z.string({ error: 'planId is required' }).check(z.minLength(1, 'planId is required'), z.maxLength(64)) });
  return { signInBody, pageQuery, linkQuery, planBody };
});

const ACTIVATION: IdKind = { prefix: 'act', unknown: () => new NotFoundError(LICENSE_MESSAGES.activationNotFound) };
const SUBSCRIPTION: IdKind = { prefix: 'sub', unknown: () => new NotFoundError(SUBSCRIPTION_NOT_FOUND) };
const PLAN: IdKind = { prefix: 'pln', unknown: () => new NotFoundError(PLAN_NOT_FOUND) };

const isForm = (event: HttpEvent) => /^application\/x-www-form-urlencoded\b/i.test(header(event, 'content-type') ?? '');

/** A browser form's fields, or a JSON body's: what the page's forms and a script may send. */
function formBody(event: HttpEvent): unknown {
  if (!isForm(event)) return jsonBody(event);
  const bytes = rawBody(event);
  if (bytes.length > FORM_LIMIT_BYTES) throw new PayloadTooLargeError();
  return Object.fromEntries(new URLSearchParams(bytes.toString('utf8')));
}

const brandingOf = (site: PortalSite): Branding => ({ ...site.settings, name: vendorName(site) });
const pageUrl = (publicKey: string, extra: Record<string, string> = {}) => `/portal?${new URLSearchParams({ public_key: publicKey, ...extra })}`;

/**
 * The hosted customer portal (DECISIONS §25): the page `/portal?public_key=…`, sign-in by e-mailed link, and the buyer's
 * own changes, as forms posted back to the page (same origin, so the CSRF rule is the dashboard's: an Origin equal to the
 * service's own). Refusals are pages in words, with the status of the JSON answer they stand for.
 */
export function hostedPortalRoutes(deps: HostedDeps, { limits, secret }: { limits: RateLimiter; secret: LinkSecret }): Route[] {
  const baseUrlOf = (event: HttpEvent) => requestBaseUrl(event, deps.config.publicBaseUrl);
  const secure = (event: HttpEvent) => baseUrlOf(event).startsWith('https:');
  /** HttpOnly, 7 days (a preview: 1 hour), only to `/portal`; `Lax`, so the link from the e-mail (a top-level navigation) carries it. */
  const sessionCookie = (event: HttpEvent, token: string, maxAge = PORTAL_SESSION_SECONDS) =>
    serialize(PORTAL_COOKIE, token, { httpOnly: true, path: '/portal', sameSite: 'lax', maxAge, secure: secure(event) });

  /** Answers an AppError as a page (keeping its status and headers); anything else is the app's 500. */
  const asPage = (run: (event: HttpEvent) => Promise<HttpResult>, branding?: (event: HttpEvent) => Branding | undefined) => async (event: HttpEvent) => {
    try {
      return await run(event);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const page = refusalPage(error, branding?.(event));
      return { ...page, headers: { ...error.headers, ...page.headers } };
    }
  };

  /** The signed-in buyer (401 without a live session), on a request from the service's own pages (403 otherwise), of a portal still on (404). */
  async function buyer(event: HttpEvent): Promise<{ session: PortalSession; token: string }> {
    const token = readCookie(event, PORTAL_COOKIE);
    const session = await portalSessionOf(deps, token);
    if (!session) throw new UnauthorizedError('Your portal session has ended; open the portal link again to sign in');
    assertOrigin(event, allowedOrigins(undefined, baseUrlOf(event)), true);
    // A vendor who turns the portal off ends what its open sessions may do, as its page answers 404.
    if (!(await getPortalSettings(deps, session.tenantId)).enabled) throw new NotFoundError(PORTAL_NOT_FOUND);
    return { session, token: token! };
  }

  /** A buyer's change: the session, the path's id, then `run`; back to the page with what was done. */
  function action(path: string, pathIds: Record<string, IdKind>, done: keyof typeof DONE, run: (session: PortalSession, id: string, event: HttpEvent) => Promise<unknown>, body?: () => z.core.$ZodType): Route {
    return {
      method: 'POST',
      path,
      input: lazyInput({ pathIds, body }),
      handler: asPage(async (event) => {
        const { session } = await buyer(event);
        if (session.preview) throw new ForbiddenError(PREVIEW_READ_ONLY);
        const [name, kind] = Object.entries(pathIds)[0]!;
        const id = event.pathParameters![name]!;
        checkIdShape(kind, id);
        const outcome = await run(session, id, event);
        return typeof outcome === 'string' ? redirect(303, outcome) : redirect(303, pageUrl(session.publicKey, { done }));
      }),
    };
  }

  return [
    {
      method: 'GET',
      path: '/portal',
      input: lazyInput({ query: () => schemas().pageQuery }),
      handler: asPage(async (event) => {
        const input = parseInput(schemas().pageQuery, query(event));
        const site = await portalSite(deps, input.public_key);
        const session = await portalSessionOf(deps, readCookie(event, PORTAL_COOKIE));
        if (!session || session.tenantId !== site.tenantId) return signInPage(brandingOf(site), site.publicKey, input.sent !== undefined);
        const account = await portalAccount(deps, secret, session, baseUrlOf(event));
        return accountPage(brandingOf(site), account, input.done && Object.hasOwn(DONE, input.done) ? DONE[input.done as keyof typeof DONE] : undefined, session.preview);
      }),
    },
    {
      method: 'POST',
      path: '/public/v1/portal/sign-in',
      input: lazyInput({ body: () => schemas().signInBody }),
      handler: async (event) => {
        const form = isForm(event);
        const run = async () => {
          const input = parseInput(schemas().signInBody, formBody(event));
          await limits.take(RATE_LIMITS.portalSignInAddress, clientNetwork(event, deps.config));
          const site = await portalSite(deps, input.public_key);
          const email = normalizeEmail(input.email);
          await limits.take(RATE_LIMITS.portalSignInEmail, email);
          await requestSignIn(deps, site, email, baseUrlOf(event));
          return form ? redirect(303, pageUrl(site.publicKey, { sent: '1' })) : json(202, { message: SIGN_IN_SENT });
        };
        return form ? asPage(run)(event) : run();
      },
    },
    {
      method: 'GET',
      path: '/portal/sign-in',
      input: lazyInput({ query: () => schemas().linkQuery }),
      handler: asPage(async (event) => {
        const { token } = parseInput(schemas().linkQuery, query(event));
        const link = await signInLinkOf(deps, token);
        if (!link) throw new BadRequestError(INVALID_LINK);
        return confirmPage(brandingOf(await portalSite(deps, link.publicKey)), link.email);
      }),
    },
    {
      method: 'POST',
      path: '/portal/sign-in',
      input: lazyInput({ query: () => schemas().linkQuery }),
      handler: asPage(async (event) => {
        const { token } = parseInput(schemas().linkQuery, query(event));
        assertOrigin(event, allowedOrigins(undefined, baseUrlOf(event)), false);
        const taken = await takeSignIn(deps, token);
        if (!taken) throw new BadRequestError(INVALID_LINK);
        return redirect(303, pageUrl(taken.session.publicKey), { cookies: [sessionCookie(event, taken.token)] });
      }),
    },
    {
      // The vendor's "View as customer" link, taken at once: the dashboard opened it, no mail scanner sees it.
      method: 'GET',
      path: '/portal/preview',
      input: lazyInput({ query: () => schemas().linkQuery }),
      handler: asPage(async (event) => {
        const { token } = parseInput(schemas().linkQuery, query(event));
        const taken = await takePreview(deps, token);
        if (!taken) throw new BadRequestError(INVALID_LINK);
        return redirect(303, pageUrl(taken.session.publicKey), { cookies: [sessionCookie(event, taken.token, PREVIEW_SESSION_SECONDS)] });
      }),
    },
    {
      method: 'POST',
      path: '/portal/sign-out',
      handler: asPage(async (event) => {
        const token = readCookie(event, PORTAL_COOKIE);
        assertOrigin(event, allowedOrigins(undefined, baseUrlOf(event)), true);
        const session = await portalSessionOf(deps, token);
        await endPortalSession(deps, token);
        const cleared = [sessionCookie(event, '', 0)];
        return session ? redirect(303, pageUrl(session.publicKey), { cookies: cleared }) : { ...signedOutPage(), cookies: cleared };
      }),
    },
    action('/portal/activations/{id}/deactivate', { id: ACTIVATION }, 'deactivated', (session, id) => deactivatePortalActivation(deps, session, id)),
    action(
      '/portal/subscriptions/{id}/change-plan',
      { id: SUBSCRIPTION },
      'planChanged',
      async (session, id, event) => {
        const { planId } = parseInput(schemas().planBody, formBody(event));
        checkIdShape(PLAN, planId);
        await changePortalPlan(deps, session, id, planId);
      },
      () => schemas().planBody,
    ),
    action('/portal/subscriptions/{id}/cancel', { id: SUBSCRIPTION }, 'cancelled', (session, id) => cancelSubscription(deps, session, id)),
    action('/portal/subscriptions/{id}/resume', { id: SUBSCRIPTION }, 'resumed', (session, id) => resumeSubscription(deps, session, id)),
    action('/portal/subscriptions/{id}/billing-portal', { id: SUBSCRIPTION }, 'resumed', (session, id, event) =>
      billingPortalUrl(deps, session, id, `${baseUrlOf(event)}${pageUrl(session.publicKey)}`),
    ),
  ];
}
