import type { HttpResult } from './types.js';

type Extras = { headers?: Record<string, string>; cookies?: string[] };

export function json(statusCode: number, body: unknown, extras: Extras = {}): HttpResult {
  return {
    statusCode,
    headers: { 'content-type': 'application/json; charset=utf-8', ...extras.headers },
    body: JSON.stringify(body),
    ...(extras.cookies?.length ? { cookies: extras.cookies } : {}),
  };
}

export const ok = (body: unknown, extras?: Extras) => json(200, body, extras);
export const created = (body: unknown, extras?: Extras) => json(201, body, extras);

export function noContent(extras: Extras = {}): HttpResult {
  return { statusCode: 204, headers: { ...extras.headers }, ...(extras.cookies?.length ? { cookies: extras.cookies } : {}) };
}

export function redirect(statusCode: 302 | 303, location: string, extras: Extras = {}): HttpResult {
  return {
    statusCode,
    headers: { location, 'cache-control': 'no-store', ...extras.headers },
    ...(extras.cookies?.length ? { cookies: extras.cookies } : {}),
  };
}
