import { z as zod, type z } from 'zod';
import { STATE_CHANGING_METHODS } from '../../shared/http/origin.js';
import { sessionCookie } from '../../shared/http/cookies.js';
import { allowedOrigins, assertOrigin } from '../../shared/http/origin.js';
import { jsonBody, query, requestBaseUrl } from '../../shared/http/request.js';
import type { HttpEvent, HttpResult } from '../../shared/http/types.js';
import { parseInput } from '../../shared/http/validation.js';
import type { Deps } from '../../shared/runtime.js';
import { authenticate, type Caller } from './authenticate.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';
export type Route = { method: Method; path: string; handler: (event: HttpEvent) => Promise<HttpResult> };

/** `rawBody`: the route reads its own body (multipart upload); otherwise bodies are JSON objects only. */
type Schemas = { body?: z.ZodType; query?: z.ZodType; rawBody?: true };

/** A state-changing route without a body schema still refuses non-JSON bodies and unknown fields. */
const NO_BODY = zod.strictObject({});
type Parsed<S extends Schemas> = {
  event: HttpEvent;
  body: S['body'] extends z.ZodType ? z.infer<S['body']> : undefined;
  query: S['query'] extends z.ZodType ? z.infer<S['query']> : undefined;
  params: Record<string, string>;
  baseUrl: string;
};
export type Authenticated<S extends Schemas> = Parsed<S> & { caller: Caller };

/** Route builders bound to one container's dependencies; each parses and checks input before the handler runs. */
export function routeBuilders(deps: Deps) {
  function parse<S extends Schemas>(event: HttpEvent, schemas: S): Parsed<S> {
    const bodySchema =
      schemas.body ?? (!schemas.rawBody && STATE_CHANGING_METHODS.has(event.requestContext.http.method) ? NO_BODY : undefined);
    const body = bodySchema ? parseInput(bodySchema, jsonBody(event)) : undefined;
    return {
      event,
      body: (schemas.body ? body : undefined) as Parsed<S>['body'],
      query: (schemas.query ? parseInput(schemas.query, query(event)) : undefined) as Parsed<S>['query'],
      params: Object.fromEntries(
        Object.entries(event.pathParameters ?? {}).map(([k, v]) => [k, decodeURIComponent(v ?? '')]),
      ),
      baseUrl: requestBaseUrl(event, deps.config.publicBaseUrl),
    };
  }
  const origins = (event: HttpEvent) =>
    allowedOrigins(deps.config.dashboardUrl, requestBaseUrl(event, deps.config.publicBaseUrl));

  /** A route open to anyone (login, register); a foreign browser origin is still refused. */
  function open<S extends Schemas>(method: Method, path: string, schemas: S, run: (req: Parsed<S>) => Promise<HttpResult>): Route {
    return {
      method,
      path,
      handler: async (event) => {
        assertOrigin(event, origins(event), false);
        return run(parse(event, schemas));
      },
    };
  }

  /** A route for an authenticated developer: session cookie (with the CSRF origin rule) or secret API key. */
  function authed<S extends Schemas>(
    method: Method,
    path: string,
    schemas: S,
    run: (req: Authenticated<S>) => Promise<HttpResult>,
  ): Route {
    return {
      method,
      path,
      handler: async (event) => {
        const caller = await authenticate(deps, event);
        if (caller.via === 'session') assertOrigin(event, origins(event), true);
        const result = await run({ ...parse(event, schemas), caller });
        if (caller.via === 'session' && caller.refreshed) {
          result.cookies = [...(result.cookies ?? []), sessionCookie(caller.token, deps.config.runtime === 'aws')];
        }
        return result;
      },
    };
  }

  return { open, authed };
}

export type RouteBuilders = ReturnType<typeof routeBuilders>;
