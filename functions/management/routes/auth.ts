import * as z from 'zod/mini';
import type { Config } from '../../../shared/config.js';
import { changePassword, getUser, logIn, registerUser, toPublicUser, updateProfile } from '../../../shared/accounts/users.js';
import { endSession } from '../../../shared/accounts/sessions.js';
import { NotFoundError } from '../../../shared/errors.js';
import { clearedSessionCookie, readCookie, SESSION_COOKIE, sessionCookie } from '../../../shared/http/cookies.js';
import { allowedOrigins, assertOrigin } from '../../../shared/http/origin.js';
import { created, noContent, ok } from '../../../shared/http/responses.js';
import { email, httpUrl, password } from '../../../shared/http/schemas.js';
import { clientAddress } from '../../../shared/http/client-address.js';
import { RATE_LIMITS } from '../../../shared/rate-limits/limits.js';
import type { RateLimiter } from '../../../shared/rate-limits/rate-limiter.js';
import type { Deps } from '../../../shared/runtime.js';
import type { Route } from '../../../shared/http/route.js';
import type { RouteBuilders } from '../route.js';

const name = z.string().check(z.trim(), z.minLength(1), z.maxLength(200));
const registerBody = z.strictObject({ email, password, name: z.optional(name) });
const loginBody = z.strictObject({ email: z.string().check(z.maxLength(254)), password: z.string().check(z.maxLength(256)) });
const profileBody = z.strictObject({ name: z.optional(name), avatarUrl: z.nullish(httpUrl) });
/** `currentPassword` is required once the user has a password; a user created by OAuth sign-in sets the first without it. */
const changePasswordBody = z.strictObject({ currentPassword: z.optional(z.string().check(z.maxLength(256))), newPassword: password });

export function authRoutes(deps: Deps<Config<'dashboard'>>, limits: RateLimiter, { open, authed }: RouteBuilders): Route[] {
  const secure = deps.config.runtime === 'aws';
  return [
    open('POST', '/api/auth/register', { body: registerBody }, async ({ body, event }) => {
      await limits.take(RATE_LIMITS.registerAddress, clientAddress(event, deps.config));
      const { user, token } = await registerUser(deps, body);
      return created({ user }, { cookies: [sessionCookie(token, secure)] });
    }),
    open('POST', '/api/auth/login', { body: loginBody }, async ({ body, event }) => {
      // The address first: a spray across many accounts from one place is refused before any account is touched.
      await limits.take(RATE_LIMITS.loginAddress, clientAddress(event, deps.config));
      const { user, token } = await logIn({ ...deps, limits }, body);
      return ok({ user }, { cookies: [sessionCookie(token, secure)] });
    }),
    // Logout works with or without a live session and always clears the cookie; riding on a cookie, it needs an allowed origin.
    open('POST', '/api/auth/logout', {}, async ({ event, baseUrl }) => {
      const token = readCookie(event, SESSION_COOKIE);
      assertOrigin(event, allowedOrigins(deps.config.dashboardUrl, baseUrl), Boolean(token));
      if (token) await endSession(deps, token);
      return noContent({ cookies: [clearedSessionCookie(secure)] });
    }),
    authed('GET', '/api/auth/me', {}, async ({ caller }) => {
      const user = await getUser(deps, caller.userId);
      if (!user) throw new NotFoundError('User not found');
      return ok({ user: toPublicUser(user) });
    }),
    authed('PUT', '/api/auth/me', { body: profileBody }, async ({ caller, body }) =>
      ok({ user: await updateProfile(deps, caller.userId, body) }),
    ),
    // Its body holds passwords, whose hash an idempotency record would keep; it creates nothing (Idempotency-Key is ignored).
    authed('POST', '/api/auth/change-password', { body: changePasswordBody, idempotent: false }, async ({ caller, body }) => {
      await changePassword(deps, caller.userId, body, caller.via === 'session' ? caller.tokenHash : undefined);
      return ok({ success: true });
    }),
  ];
}
