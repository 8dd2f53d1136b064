import type { MiddlewareObj } from '@middy/core';
import { header } from './request.js';
import type { HttpEvent, HttpResult } from './types.js';

/** `idempotency-key`: the client libraries send one on writes, so browsers must be allowed to. */
const ALLOWED_HEADERS = 'content-type, authorization, idempotency-key';
/** Answer headers a browser script may read besides the simple ones: a replay's mark and the wait of a 429 or 503. */
const EXPOSED_HEADERS = 'idempotent-replayed, retry-after';
/** The open surfaces also take a client's nonce for their signed answers, and let browsers read the signature. */
const OPEN_ALLOWED_HEADERS = `${ALLOWED_HEADERS}, signature-nonce`;
const OPEN_EXPOSED_HEADERS = `${EXPOSED_HEADERS}, content-digest, date, signature, signature-input`;
const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';

export type CorsPolicy =
  /** Any origin, no credentials: the public surfaces. */
  | { kind: 'open' }
  /** Exactly one origin, with credentials (the dashboard on `/api`); never `*`. */
  | { kind: 'credentialed'; origin: string | undefined };

/** What every answer of an open surface carries: the same two headers, built once. */
const OPEN_HEADERS: Readonly<Record<string, string>> = { 'access-control-allow-origin': '*', 'access-control-expose-headers': OPEN_EXPOSED_HEADERS };

function corsHeaders(policy: CorsPolicy, requestOrigin: string | undefined): Readonly<Record<string, string>> {
  if (policy.kind === 'open') return OPEN_HEADERS;
  if (!policy.origin || requestOrigin !== policy.origin) return { vary: 'origin' };
  return {
    'access-control-allow-origin': policy.origin,
    'access-control-allow-credentials': 'true',
    'access-control-expose-headers': EXPOSED_HEADERS,
    vary: 'origin',
  };
}

/** Adds CORS headers to every answer and answers preflight requests itself. */
export function cors(policy: CorsPolicy): MiddlewareObj<HttpEvent, HttpResult> {
  // The answer is this request's own (built by its route or the error handler): its headers are added to, not copied.
  const decorate = (request: { event: HttpEvent; response: HttpResult | null }) => {
    if (!request.response) return;
    request.response.headers = Object.assign(request.response.headers ?? {}, corsHeaders(policy, header(request.event, 'origin')));
  };
  return {
    before: async (request) => {
      if (request.event.requestContext.http.method !== 'OPTIONS') return;
      return {
        statusCode: 204,
        headers: {
          ...corsHeaders(policy, header(request.event, 'origin')),
          'access-control-allow-methods': ALLOWED_METHODS,
          'access-control-allow-headers': policy.kind === 'open' ? OPEN_ALLOWED_HEADERS : ALLOWED_HEADERS,
          'access-control-max-age': '600',
        },
      };
    },
    // Synchronous: middy awaits whatever a middleware returns, and a promise made per request for nothing costs.
    after: decorate,
    onError: decorate,
  };
}
