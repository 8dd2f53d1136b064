import * as z from 'zod/mini';
import { type Config, type Deps, ForbiddenError } from '../../shared/platform/index.js';
import { allowedOrigins, type AnswerKeeping, assertOrigin, checkIdShape, type HttpEvent, type HttpResult, type IdKind, jsonBody, lazyInput, type Method, parseInput, query, requestBaseUrl, type Route, runIdempotently, sessionCookie, STATE_CHANGING_METHODS } from '../../shared/platform/http/index.js';
import { type Permission, requireVerifiedAddress, ROLE_REFUSED, roleAllows } from '../../shared/identity/index.js';
import { audited, type AuditDeclaration } from './audited.js';
import { authenticate, SESSION_REQUIRED, type Caller, type SessionCaller } from './authenticate.js';

/**
 * A schema, or a function that gives it: the route files give their schemas' builders (`lazily`, shared/platform/lazily.ts), so
 * that a cold start builds only the schemas of the route it serves. Building every route's at load took 15–25 ms of
 * this function's init (zod builds each schema object with its checks: about 30 µs apiece, 650 of them; issue 26).
 */
type SchemaSource = z.core.$ZodType | (() => z.core.$ZodType);
type Built<T> = T extends () => infer S ? S : T;
const schemaOf = <T extends SchemaSource | undefined>(source: T) => (typeof source === 'function' ? source() : source) as Built<T>;

/**
 * What a route reads, checked in this order before the route runs: the body (a JSON object against `body`,
 * or the route's own `readBody`, e.g. a multipart upload), the query, then the ids in the path (`pathIds`,
 * one per `{param}`) and in the body (`bodyIds`). Ids come last so that a request with a malformed id is
 * answered exactly as one with an unknown id, which only the route's first read would find out.
 */
type Schemas = {
  body?: SchemaSource;
  readBody?: (event: HttpEvent) => Promise<unknown>;
  query?: SchemaSource;
  pathIds?: Record<string, IdKind>;
  bodyIds?: Record<string, IdKind>;
  /**
   * `false`: the route ignores `Idempotency-Key`. Every other authenticated POST takes it, scoped to the caller's
   * account; a route opts out only when its answer must not be kept (a secret shown once) or its body holds a
   * password (the request's hash is kept).
   */
  idempotent?: false;
  /** How the caller's answer is kept for replays when it holds a secret that can be read again (a webhook's). */
  keptAnswer?: (caller: Caller) => AnswerKeeping;
  /**
   * `true`: for a signed-in session only; an API key is 403 (DECISIONS §13: the account's own credentials; §20: the team
   * and the payment provider, so that a leaked key cannot outlive its revocation through a member it invited).
   */
  sessionOnly?: true;
  /**
   * `true`: the calling account's address must be verified, else 403 `Verify your e-mail address first` (DECISIONS §20):
   * the routes that reach beyond the account (people invited, URLs sent data, a Stripe account paid, data carried out or in),
   * which an account registered with someone else's address must not use before the address's owner can take it over.
   */
  verifiedOnly?: true;
};

/** What an authenticated route declares besides its input: the permission it needs, and the change it makes. */
type AuthedSchemas = Schemas & {
  /** The one permission the caller's role must grant (shared/identity/teams/roles.ts), else 403 `Your role does not allow this`. */
  permission: Permission;
  /**
   * A route that changes something: the audit entry it leaves (DECISIONS §17), its `action` and its target's type (the
   * entity whose item the change writes; `idField`: the item's field naming it, default `<type>Id`). `false`: it
   * changes nothing of the tenant's (the session's own tenant).
   */
  audit?: AuditDeclaration | false;
};

/** A state-changing route without a body schema still refuses non-JSON bodies and unknown fields. */
const NO_BODY = z.strictObject({});
type Parsed<S extends Schemas> = {
  event: HttpEvent;
  body: Built<S['body']> extends z.core.$ZodType
    ? z.infer<Built<S['body']>>
    : S['readBody'] extends (event: HttpEvent) => Promise<infer B>
      ? B
      : undefined;
  query: Built<S['query']> extends z.core.$ZodType ? z.infer<Built<S['query']>> : undefined;
  params: Record<string, string>;
  baseUrl: string;
};
export type Authenticated<S extends Schemas> = Parsed<S> & { caller: S['sessionOnly'] extends true ? SessionCaller : Caller };

const pathParamNames = (path: string) => [...path.matchAll(/\{([^}+]+)\}/g)].map((match) => match[1]!);

/** Route builders bound to one container's dependencies; each parses and checks input before the handler runs. */
export function routeBuilders(deps: Deps<Config<'links' | 'dashboard'>>) {
  async function parse<S extends Schemas>(event: HttpEvent, schemas: S): Promise<Parsed<S>> {
    const bodySchema =
      schemaOf(schemas.body) ?? (!schemas.readBody && STATE_CHANGING_METHODS.has(event.requestContext.http.method) ? NO_BODY : undefined);
    const body = schemas.readBody ? await schemas.readBody(event) : bodySchema ? parseInput(bodySchema, jsonBody(event)) : undefined;
    const querySchema = schemaOf(schemas.query);
    const parsedQuery = querySchema ? parseInput(querySchema, query(event)) : undefined;
    // The app decodes the parameters of routes that have some; the gateway adds its own `proxy`, which no route reads.
    const params = (event.pathParameters ?? {}) as Record<string, string>;
    for (const [name, kind] of Object.entries(schemas.pathIds ?? {})) checkIdShape(kind, params[name]!);
    for (const [field, kind] of Object.entries(schemas.bodyIds ?? {})) {
      const value = (body as Record<string, unknown>)[field];
      if (typeof value === 'string') checkIdShape(kind, value);
    }
    return {
      event,
      body: (schemas.body || schemas.readBody ? body : undefined) as Parsed<S>['body'],
      query: parsedQuery as Parsed<S>['query'],
      params,
      baseUrl: requestBaseUrl(event, deps.config.publicBaseUrl),
    };
  }

  /** Every `{param}` of a path is an id whose kind the route names, so none reaches a read unchecked. */
  function route(method: Method, path: string, schemas: Schemas & Partial<AuthedSchemas>, handler: Route['handler'], idempotent = false): Route {
    const unchecked = pathParamNames(path).filter((name) => !schemas.pathIds?.[name]);
    if (unchecked.length) throw new Error(`${method} ${path}: no id kind for {${unchecked.join('}, {')}}`);
    const flags = {
      ...(idempotent ? { idempotent } : {}),
      ...(schemas.sessionOnly ? { sessionOnly: true } : {}),
      ...(schemas.verifiedOnly ? { verifiedOnly: true } : {}),
      ...(schemas.permission ? { permission: schemas.permission } : {}),
      ...(schemas.audit !== undefined ? { audit: schemas.audit } : {}),
    };
    const input = lazyInput({ pathIds: schemas.pathIds, body: () => schemaOf(schemas.body), query: () => schemaOf(schemas.query), ...flags });
    return { method, path, handler, input };
  }

  const origins = (event: HttpEvent) =>
    allowedOrigins(deps.config.dashboardUrl, requestBaseUrl(event, deps.config.publicBaseUrl));

  /** A route open to anyone (login, register); a foreign browser origin is still refused. */
  function open<S extends Schemas>(method: Method, path: string, schemas: S, run: (req: Parsed<S>) => Promise<HttpResult>): Route {
    return route(method, path, schemas, async (event) => {
      assertOrigin(event, origins(event), false);
      return run(await parse(event, schemas));
    });
  }

  /**
   * A route for an authenticated developer: session cookie (with the CSRF origin rule) or secret API key (not on a
   * `sessionOnly` route: 403, before anything is read); then the role, then (`verifiedOnly`) the address. A POST
   * takes `Idempotency-Key` (unless `idempotent: false`), scoped to the caller's account: checked once the caller is
   * known, around the input's parsing and the route, so the refreshed session cookie is never part of a kept answer.
   */
  function authed<S extends AuthedSchemas>(
    method: Method,
    path: string,
    schemas: S,
    run: (req: Authenticated<S>) => Promise<HttpResult>,
  ): Route {
    const idempotent = method === 'POST' && schemas.idempotent !== false;
    const audit = method === 'GET' ? undefined : schemas.audit || undefined;
    return route(
      method,
      path,
      schemas,
      async (event) => {
        const caller = await authenticate(deps, event);
        if (schemas.sessionOnly && caller.via !== 'session') throw new ForbiddenError(SESSION_REQUIRED);
        if (caller.via === 'session') assertOrigin(event, origins(event), true);
        if (!roleAllows(caller.role, schemas.permission)) throw new ForbiddenError(ROLE_REFUSED);
        // A key acts for its tenant's owner (`userId`): the owner's address is the one that counts then.
        if (schemas.verifiedOnly) await requireVerifiedAddress(deps, caller.userId);
        const answer = async () => run({ ...(await parse(event, schemas)), caller: caller as Authenticated<S>['caller'] });
        // The caller's own account is their own tenant's, whichever tenant the session acts in.
        const auditTenant = schemas.permission === 'account' ? caller.userId : caller.tenantId;
        const respond = audit ? () => audited(deps, event, caller, { ...audit, tenantId: auditTenant }, answer) : answer;
        const keeping = schemas.keptAnswer?.(caller);
        const result = idempotent ? await runIdempotently(deps, event, `user#${caller.userId}`, respond, { keeping }) : await respond();
        if (caller.via === 'session' && caller.refreshed) {
          result.cookies = [...(result.cookies ?? []), sessionCookie(caller.token, deps.config.runtime === 'aws')];
        }
        return result;
      },
      idempotent,
    );
  }

  return { open, authed };
}

export type RouteBuilders = ReturnType<typeof routeBuilders>;
