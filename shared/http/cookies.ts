import { parse, serialize } from 'cookie';
import type { HttpEvent } from './types.js';

export const SESSION_COOKIE = 'session';
const SESSION_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

export function readCookie(event: HttpEvent, name: string): string | undefined {
  const all = event.cookies?.length ? event.cookies.join('; ') : event.headers?.cookie;
  return all ? parse(all)[name] : undefined;
}

/** `session` cookie: HttpOnly, Path=/, SameSite=None, 30 days, and Secure where the service runs on HTTPS. */
export function sessionCookie(token: string, secure: boolean): string {
  return serialize(SESSION_COOKIE, token, {
    httpOnly: true,
    path: '/',
    sameSite: 'none',
    maxAge: SESSION_MAX_AGE_SECONDS,
    secure,
  });
}

export function clearedSessionCookie(secure: boolean): string {
  return serialize(SESSION_COOKIE, '', { httpOnly: true, path: '/', sameSite: 'none', maxAge: 0, secure });
}
