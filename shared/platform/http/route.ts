import type { $ZodType } from 'zod/v4/core';
import type { IdKind } from './id-kind.js';
import type { HttpEvent, HttpResult } from './types.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * What a route reads besides its method and path: the kinds of the ids in its path, its JSON body and
 * its query. Routes carry it so that whatever enumerates the API (the malformed-input sweep) finds every
 * field of a new route by itself.
 */
export type RouteInput = {
  pathIds?: Record<string, IdKind>;
  /** The schema (an object) of its path parameters that are not ids: a slug, a platform, a version. */
  path?: $ZodType;
  body?: $ZodType;
  query?: $ZodType;
  /** The route takes an `Idempotency-Key` header (shared/platform/http/idempotency.ts). */
  idempotent?: boolean;
  /** A signed-in session only, never an API key (DECISIONS §13, §20). */
  sessionOnly?: boolean;
  /** The caller's address must be verified (DECISIONS §20). */
  verifiedOnly?: boolean;
  /** The permission a management route needs (its names are the team roles', shared/identity/teams/roles.ts): the route × role matrix is read from here. */
  permission?: string;
  /** The audit entry a management write route leaves (`false`: none, it changes nothing of a tenant's). */
  audit?: { action: string; target: string; idField?: string } | false;
};

export type Route = {
  method: Method;
  path: string;
  handler: (event: HttpEvent) => Promise<HttpResult>;
  input?: RouteInput;
  /**
   * `direct`: the route reads and writes only through direct requests (`data.reads`, `data.updates`), so it is served
   * without loading the data model (ElectroDB); every other route loads it first (shared/platform/http/app.ts).
   */
  data?: 'direct';
};

/** Schema builders of a route (`lazily`, shared/platform/lazily.ts), for `lazyInput`. */
export type SchemaBuilders = { path?: () => $ZodType | undefined; body?: () => $ZodType | undefined; query?: () => $ZodType | undefined };

/**
 * A route's input whose schemas are built when first read: by the route's first request, or by what enumerates the
 * API. Building a zod schema costs tens of microseconds, and a cold start that built every route's spent milliseconds
 * on routes its container may never serve (issue 26).
 */
export function lazyInput({ path, body, query, ...rest }: Omit<RouteInput, 'path' | 'body' | 'query'> & SchemaBuilders): RouteInput {
  return Object.defineProperties(rest as RouteInput, {
    path: { enumerable: true, get: () => path?.() },
    body: { enumerable: true, get: () => body?.() },
    query: { enumerable: true, get: () => query?.() },
  });
}

/** `input` with `flags` added, its schemas still built when first read (a spread would build them). */
export function inputWith(input: RouteInput | undefined, flags: Omit<RouteInput, 'path' | 'body' | 'query'>): RouteInput {
  return Object.defineProperties(Object.defineProperties({}, Object.getOwnPropertyDescriptors(input ?? {})), Object.getOwnPropertyDescriptors(flags));
}
