/** The public surface of shared/platform/http: what the contexts and the functions use of it. */
export { httpApp } from './app.js';
export { addressNetwork, clientAddress, clientNetwork } from './client-address.js';
export { OAUTH_STATE_COOKIE, SESSION_COOKIE, clearedOAuthStateCookie, clearedSessionCookie, oauthStateCookie, readCookie, sessionCookie } from './cookies.js';
export { errorAnswer } from './error-handler.js';
export { originVerifyTokenOf } from './front-door.js';
export { checkIdShape } from './id-kind.js';
export type { IdKind } from './id-kind.js';
export { idempotentRoute, runIdempotently } from './idempotency.js';
export type { AnswerKeeping, IdempotencyScope } from './idempotency.js';
export { STATE_CHANGING_METHODS, allowedOrigins, assertOrigin } from './origin.js';
export { optionalText, requiredText } from './plugin-fields.js';
export { header, jsonBody, query, rawBody, requestBaseUrl } from './request.js';
export { created, json, noContent, ok, redirect } from './responses.js';
export { lazyInput } from './route.js';
export type { Method, Route } from './route.js';
export { email, httpUrl, idFilter, paginationQuery, password } from './schemas.js';
export type { HttpEvent, HttpResult } from './types.js';
export { parseInput } from './validation.js';
