import { parse, serialize } from 'cookie';
import type { HttpEvent } from './types.js';

export const SESSION_COOKIE = 'session';
const SESSION_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

export function readCookie(event: HttpEvent, name: string): string | undefined {
  const all = event.cookies?.length ? event.cookies.join('; ') : event.headers?.cookie;
  return all ? parse(all)[name] : undefined;
}

/**
 * `SameSite=None` needs `Secure`: browsers drop a `None` cookie without it. Over plain HTTP (the local runtime) the
 * cookie is `Lax` instead, which the dashboard served on the service's own origin (or another port of localhost,
 * the same site) still gets.
 */
const sameSite = (secure: boolean) => (secure ? 'none' : 'lax');

/** `session` cookie: HttpOnly, Path=/, 30 days; Secure and SameSite=None where the service runs on HTTPS, else Lax. */
export function sessionCookie(token: string, secure: boolean): string {
  return serialize(SESSION_COOKIE, token, {
    httpOnly: true,
    path: '/',
    sameSite: sameSite(secure),
    maxAge: SESSION_MAX_AGE_SECONDS,
    secure,
  });
}

export function clearedSessionCookie(secure: boolean): string {
  return serialize(SESSION_COOKIE, '', { httpOnly: true, path: '/', sameSite: sameSite(secure), maxAge: 0, secure });
}

/**
 * Binds an OAuth sign-in to the browser that started it (shared/identity/accounts/oauth-sign-in.ts): HttpOnly, sent only to
 * `/api/oauth` routes, for the 10 minutes a sign-in may take. `SameSite=Lax`: the provider's redirect back to the
 * callback is a top-level GET, which carries it, and nothing cross-site does otherwise.
 */
export const OAUTH_STATE_COOKIE = 'oauth_state';
const OAUTH_COOKIE_PATH = '/api/oauth';

export function oauthStateCookie(value: string, maxAgeSeconds: number, secure: boolean): string {
  return serialize(OAUTH_STATE_COOKIE, value, { httpOnly: true, path: OAUTH_COOKIE_PATH, sameSite: 'lax', maxAge: maxAgeSeconds, secure });
}

export function clearedOAuthStateCookie(secure: boolean): string {
  return serialize(OAUTH_STATE_COOKIE, '', { httpOnly: true, path: OAUTH_COOKIE_PATH, sameSite: 'lax', maxAge: 0, secure });
}

/**
 * Marks a browser that signed in (shared/identity/accounts/known-devices.ts): HttpOnly, sent only to `/api` (login,
 * registration and sign-in callbacks read it), for a year from its last sign-in; Secure and SameSite as the session's.
 */
export const DEVICE_COOKIE = 'device';
export const DEVICE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

export function deviceCookie(token: string, secure: boolean): string {
  return serialize(DEVICE_COOKIE, token, { httpOnly: true, path: '/api', sameSite: sameSite(secure), maxAge: DEVICE_MAX_AGE_SECONDS, secure });
}
