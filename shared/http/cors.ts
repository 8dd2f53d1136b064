import type { MiddlewareObj } from '@middy/core';
import { header } from './request.js';
import type { HttpEvent, HttpResult } from './types.js';

/** `idempotency-key`: the client libraries send one on writes, so browsers must be allowed to (issue 17). */
const ALLOWED_HEADERS = 'content-type, authorization, idempotency-key';
/** What browser code may read of an answer: the wait of a 429 or 503, and the signature headers of signed answers. */
const EXPOSED_HEADERS = 'retry-after, date, signature, signature-input, content-digest';
const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';

export type CorsPolicy =
  /** Any origin, no credentials: the public surfaces. */
  | { kind: 'open' }
  /** Exactly one origin, with credentials (the dashboard on `/api`); never `*`. */
  | { kind: 'credentialed'; origin: string | undefined };

function corsHeaders(policy: CorsPolicy, requestOrigin: string | undefined): Record<string, string> {
  if (policy.kind === 'open') return { 'access-control-allow-origin': '*', 'access-control-expose-headers': EXPOSED_HEADERS };
  if (!policy.origin || requestOrigin !== policy.origin) return { vary: 'origin' };
  return { 'access-control-allow-origin': policy.origin, 'access-control-allow-credentials': 'true', vary: 'origin' };
}

/** Adds CORS headers to every answer and answers preflight requests itself. */
export function cors(policy: CorsPolicy): MiddlewareObj<HttpEvent, HttpResult> {
  const decorate = (request: { event: HttpEvent; response: HttpResult | null }) => {
    if (!request.response) return;
    request.response.headers = { ...request.response.headers, ...corsHeaders(policy, header(request.event, 'origin')) };
  };
  return {
    before: async (request) => {
      if (request.event.requestContext.http.method !== 'OPTIONS') return;
      return {
        statusCode: 204,
        headers: {
          ...corsHeaders(policy, header(request.event, 'origin')),
          'access-control-allow-methods': ALLOWED_METHODS,
          'access-control-allow-headers': ALLOWED_HEADERS,
          'access-control-max-age': '600',
        },
      };
    },
    after: async (request) => decorate(request),
    onError: async (request) => decorate(request),
  };
}
