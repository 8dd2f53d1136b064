import * as z from 'zod/mini';
import { BadRequestError, type Config, type Deps, ForbiddenError, lazily, NotFoundError } from '../../../shared/platform/index.js';
import { bearerKeyOwner, changePassword, endSession, getUser, logIn, registerUser, resendVerification, roleIn, switchSessionTenant, teamUser, updateProfile, verifyEmail } from '../../../shared/identity/index.js';
import { allowedOrigins, assertOrigin, clearedSessionCookie, clientNetwork, created, DEVICE_COOKIE, deviceCookie, email, httpUrl, json, noContent, ok, password, readCookie, redirect, type Route, SESSION_COOKIE, sessionCookie } from '../../../shared/platform/http/index.js';
import { RATE_LIMITS, type RateLimiter } from '../../../shared/platform/rate-limits/index.js';
import { SESSION_REQUIRED } from '../authenticate.js';
import type { RouteBuilders } from '../route.js';

/** The routes' schemas, built with the first request that reads one (functions/management/route.ts: `SchemaSource`). */
const schemas = lazily(() => {
  const name = z.string().check(z.trim(), z.minLength(1), z.maxLength(200));
  const registerBody = z.strictObject({ email, password, name: z.optional(name) });
  const loginBody = z.strictObject({ email: z.string().check(z.maxLength(254)), password: z.string().check(z.maxLength(256)) });
  /** Any other parameter is ignored; a missing or malformed token is answered as an unknown one. */
  const verifyQuery = z.object({ token: z.optional(z.string()) });
  const switchBody = z.strictObject({ tenantId: z.string().check(z.maxLength(64)) });
  const profileBody = z.strictObject({ name: z.optional(name), avatarUrl: z.nullish(httpUrl) });
  /** `currentPassword` is required once the user has a password; a user created by OAuth sign-in sets the first without it. */
  const changePasswordBody = z.strictObject({ currentPassword: z.optional(z.string().check(z.maxLength(256))), newPassword: password });
  return { registerBody, loginBody, verifyQuery, switchBody, profileBody, changePasswordBody };
});

export function authRoutes(deps: Deps<Config<'dashboard' | 'registration'>>, limits: RateLimiter, { open, authed }: RouteBuilders): Route[] {
  const secure = deps.config.runtime === 'aws';
  const dashboardUrl = deps.config.dashboardUrl;
  /** `DASHBOARD_URL` with one parameter added (its own query kept). */
  const dashboardLanding = (name: string, value: string) => {
    const location = new URL(dashboardUrl!);
    location.searchParams.set(name, value);
    return location.href;
  };
  return [
    // DECISIONS §20: whether anyone may register here, so that the dashboard shows its sign-up form only where it works.
    open('GET', '/api/auth/registration', {}, async () => ok({ registration: deps.config.registration })),
    open('POST', '/api/auth/register', { body: () => schemas().registerBody }, async ({ body, event, baseUrl }) => {
      await limits.take(RATE_LIMITS.registerAddress, clientNetwork(event, deps.config));
      const { user, token, device } = await registerUser(deps, body, baseUrl, readCookie(event, DEVICE_COOKIE));
      return created({ user }, { cookies: [sessionCookie(token, secure), deviceCookie(device, secure)] });
    }),
    // The link of the verification e-mail, opened in a browser: to the dashboard, which says how it went (DECISIONS §13).
    open('GET', '/api/auth/verify-email', { query: () => schemas().verifyQuery }, async ({ query }) => {
      try {
        await verifyEmail(deps, query.token);
      } catch (error) {
        if (!(error instanceof BadRequestError) || !dashboardUrl) throw error;
        return redirect(302, dashboardLanding('error', 'invalid_token'));
      }
      return dashboardUrl ? redirect(302, dashboardLanding('verified', '1')) : ok({ verified: true });
    }),
    authed('POST', '/api/auth/verify-email/resend', { sessionOnly: true, permission: 'account', audit: false }, async ({ caller, baseUrl }) => {
      await limits.take(RATE_LIMITS.verificationResend, caller.userId);
      await resendVerification(deps, caller.userId, baseUrl);
      return json(202, { sent: true });
    }),
    open('POST', '/api/auth/login', { body: () => schemas().loginBody }, async ({ body, event }) => {
      // The address first: a spray across many accounts from one place is refused before any account is touched.
      const network = clientNetwork(event, deps.config);
      await limits.take(RATE_LIMITS.loginAddress, network);
      const { user, token, device } = await logIn({ ...deps, limits }, body, { network, device: readCookie(event, DEVICE_COOKIE) });
      return ok({ user }, { cookies: [sessionCookie(token, secure), deviceCookie(device, secure)] });
    }),
    // Logout works with or without a live session and always clears the cookie; riding on a cookie, it needs an allowed origin.
    open('POST', '/api/auth/logout', {}, async ({ event, baseUrl }) => {
      // Open, so no caller is authenticated; a bearer key (the one credential that wins over the cookie) is refused as on the other credential routes.
      if (await bearerKeyOwner(deps, event)) throw new ForbiddenError(SESSION_REQUIRED);
      const token = readCookie(event, SESSION_COOKIE);
      assertOrigin(event, allowedOrigins(deps.config.dashboardUrl, baseUrl), Boolean(token));
      if (token) await endSession(deps, token);
      return noContent({ cookies: [clearedSessionCookie(secure)] });
    }),
    authed('GET', '/api/auth/me', { permission: 'account' }, async ({ caller }) => {
      const user = await getUser(deps, caller.userId);
      if (!user) throw new NotFoundError('User not found');
      return ok({ user: await teamUser(deps, user, caller) });
    }),
    // DECISIONS §17: the session acts in another tenant the user belongs to (404 for one they do not: not theirs to know of).
    authed('POST', '/api/auth/switch-tenant', { body: () => schemas().switchBody, sessionOnly: true, idempotent: false, permission: 'account', audit: false }, async ({ caller, body }) => {
      const role = await roleIn(deps, caller.userId, body.tenantId);
      if (!role) throw new NotFoundError('Team not found');
      await switchSessionTenant(deps, caller.tokenHash, body.tenantId);
      const user = await getUser(deps, caller.userId);
      if (!user) throw new NotFoundError('User not found');
      return ok({ user: await teamUser(deps, user, { tenantId: body.tenantId, role }) });
    }),
    authed('PUT', '/api/auth/me', { body: () => schemas().profileBody, sessionOnly: true, permission: 'account', audit: { action: 'user.update', target: 'user' } }, async ({ caller, body }) =>
      ok({ user: await updateProfile(deps, caller.userId, body) }),
    ),
    // Its body holds passwords, whose hash an idempotency record would keep; it creates nothing (Idempotency-Key is ignored).
    authed('POST', '/api/auth/change-password', { body: () => schemas().changePasswordBody, idempotent: false, sessionOnly: true, permission: 'account', audit: { action: 'user.changePassword', target: 'user' } }, async ({ caller, body }) => {
      await changePassword(deps, caller.userId, body, caller.tokenHash);
      return ok({ success: true });
    }),
  ];
}
