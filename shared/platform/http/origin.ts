import { ForbiddenError } from '../errors.js';
import { header } from './request.js';
import type { HttpEvent } from './types.js';

export const STATE_CHANGING_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function originOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** The dashboard's origin and the service's own: the only pages that may drive the session cookie. */
export function allowedOrigins(dashboardUrl: string | undefined, serviceBaseUrl: string): Set<string> {
  return new Set([originOf(dashboardUrl), originOf(serviceBaseUrl)].filter((o): o is string => Boolean(o)));
}

/**
 * CSRF rule: a state-changing request riding on the session cookie needs an allowed `Origin`.
 * `required: false` (login, register) still refuses a foreign origin when a browser sends one.
 */
export function assertOrigin(event: HttpEvent, allowed: Set<string>, required: boolean): void {
  if (!STATE_CHANGING_METHODS.has(event.requestContext.http.method)) return;
  const origin = header(event, 'origin');
  if (origin === undefined && !required) return;
  if (!origin || !allowed.has(origin)) throw new ForbiddenError('Origin not allowed');
}
