import * as z from 'zod/mini';
import type { Method } from '../http/route.js';
import type { RateLimit } from '../rate-limits/limits.js';

/**
 * What the OpenAPI document says about each route, beside what the route itself carries (its path ids and
 * its body and query schemas, which the document reads from the route): a summary, the success answers with
 * their zod schemas and examples, and the error messages of each status. Each surface keeps these next to its
 * route files (`*.openapi.ts`), keyed `"METHOD /path"` exactly as the route is; `infra/openapi.ts` joins them to
 * the routes and fails for a route without an entry or an entry without a route. These modules are for the
 * document only: no handler imports them, so the Lambda bundles do not grow with the documentation.
 */

/** Metadata of documented schemas: `id` makes a schema a named component (`#/components/schemas/<id>`). */
export type SchemaMeta = { id?: string; description?: string; examples?: unknown[] };
export const schemaDocs = z.registry<SchemaMeta>();

/** Registers a response schema as a named component of the document. */
export function named<S extends z.core.$ZodType>(id: string, schema: S, description?: string): S {
  schemaDocs.add(schema, { id, ...(description ? { description } : {}) });
  return schema;
}

/**
 * A copy of a schema with a description (and examples), not named. A copy, so that describing a shared schema
 * (`timestamp`) in one place does not describe it everywhere else.
 */
export function described<S extends z.core.$ZodType>(schema: S, description: string, examples?: unknown[]): S {
  const copy = z.clone(schema);
  schemaDocs.add(copy, { description, ...(examples ? { examples } : {}) });
  return copy;
}

/**
 * A compile-time check that a response schema describes what the domain function returns: the view's value
 * must be assignable to the schema's type, and both must have the same keys. Use as
 * `assertDescribes<typeof LicenseSchema, License>(true)` beside the schema, so a field added to the view
 * without the schema (or the other way round) does not compile.
 */
export type Describes<S extends z.core.$ZodType, View> = [View] extends [z.infer<S>]
  ? [Exclude<keyof View, keyof z.infer<S>> | Exclude<keyof z.infer<S>, keyof View>] extends [never]
    ? true
    : { missingOrExtraKeys: Exclude<keyof View, keyof z.infer<S>> | Exclude<keyof z.infer<S>, keyof View> }
  : { notAssignable: View };

/** Compiles only when `Describes<S, View>` holds (see above); does nothing when it runs. */
export function assertDescribes<S extends z.core.$ZodType, View>(check: Describes<S, View>): void {
  void check;
}

/** The security schemes of the document (`components.securitySchemes`). */
export const SECURITY_SCHEMES = {
  sessionCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: 'session',
    description:
      'The dashboard session, set by `POST /api/auth/login` or `/api/auth/register` (HttpOnly, 30 days). A state-changing ' +
      'request riding on it needs an `Origin` header equal to the dashboard\'s or the service\'s own origin (403 `Origin not allowed`).',
  },
  portalSession: {
    type: 'apiKey',
    in: 'cookie',
    name: 'portal_session',
    description:
      'A buyer\'s hosted portal session (DECISIONS §25), set by the e-mailed sign-in link (HttpOnly, `Path=/portal`, `SameSite=Lax`, 7 days, ' +
      'Secure on https): one customer of one vendor. A state-changing request must carry `Origin` equal to the service\'s own (403 `Origin not allowed`).',
  },
  secretKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'sk_…',
    description:
      'A secret API key (`POST /api/api-keys`): `Authorization: Bearer sk_…`. Server to server only; no cookie and no `Origin` needed. ' +
      'A `pk_` key here is 401 `A secret API key (sk_) is required`.',
  },
  publicKey: {
    type: 'apiKey',
    in: 'query',
    name: 'public_key',
    description:
      'The product\'s public key (`pk_…`): identifies a product, changes nothing, safe to ship in distributed code. The plans and ' +
      'checkout routes take it in the query; the license operations under `/public/v1` take it as `public_key` in the JSON body.',
  },
  licenseKeyBasic: {
    type: 'http',
    scheme: 'basic',
    description:
      'The Composer repository (`/composer`): HTTP Basic auth with a license key as the user name and anything as the password ' +
      "(the site's URL is a good choice: its install is counted under that site), as Composer sends it from `auth.json` (`http-basic`).",
  },
  stripeSignature: {
    type: 'apiKey',
    in: 'header',
    name: 'Stripe-Signature',
    description: "Stripe's signature of the raw body with the vendor's webhook signing secret (`whsec_…`), at most 300 s old.",
  },
} as const;

export type SecuritySchemeName = keyof typeof SECURITY_SCHEMES;
/** Alternatives, any one of which suffices; `[]` in an alternative means no credential. */
export type Security = SecuritySchemeName[][];

export type ResponseDoc = {
  description: string;
  /** The JSON body; absent: no body (204, redirects) unless `html` is set. */
  body?: z.core.$ZodType;
  /** Examples of the body, by name; each must validate against `body` (a test checks). */
  examples?: Record<string, unknown>;
  /** An HTML body instead of JSON, with an example. */
  html?: string;
  /** Another text body instead of JSON (YAML, XML), with its content type and an example. */
  text?: { contentType: string; example: string };
  /** Response headers, each a description (and whether it is always sent). */
  headers?: Record<string, { description: string; required?: boolean }>;
};

export type RequestBodyDoc = {
  /** Defaults to `application/json`. */
  contentType?: string;
  /** The body's schema when the route does not carry it (`route.input.body`), e.g. a multipart form. */
  schema?: z.core.$ZodType;
  /** Examples of the body, by name; each must validate against the schema (a test checks). */
  examples?: Record<string, unknown>;
  description?: string;
};

export type OperationDoc = {
  summary: string;
  /** Markdown: what the route does beyond its summary; rules a caller needs. */
  description?: string;
  /** Overrides the surface's security (e.g. register and login take no credential). */
  security?: Security;
  requestBody?: RequestBodyDoc;
  /** Example values of query parameters, by name (strings, as sent). */
  queryExamples?: Record<string, string>;
  /** Request headers the route reads (none is required), by name: what it means, its pattern and an example. */
  headerParameters?: Record<string, { description: string; pattern?: string; example: string }>;
  /** A path parameter's schema when its id kind alone does not say it (e.g. `{planId}` takes `plan_…` or `pln_…`). */
  pathParameters?: Record<string, { schema: z.core.$ZodType; description: string; example: string }>;
  /** Success answers by status. */
  responses: Partial<Record<number, ResponseDoc>>;
  /**
   * Error messages by status, beside those every route of its surface has (authentication, bad JSON, the
   * unknown ids of its path, storage unavailable), which the surface adds. Exact messages (DECISIONS §2, §4).
   */
  errors?: Partial<Record<number, string[]>>;
  /** Rate limits the route takes a token from: adds 429 with their messages and `Retry-After`. */
  rateLimits?: RateLimit[];
  /** The schema of error bodies when it is not `{error, details?}` (validate answers `{valid: false, error}`). */
  errorBody?: 'validation';
  /** Refusals answered to a browser's form post as an HTML page that says the message in words (the hosted portal's forms). */
  errorPage?: boolean;
  /** Its signed refusals are bound to their request: they may name `license_key` and `domain` (DECISIONS §13). */
  boundAnswers?: true;
  deprecated?: boolean;
};

export type OperationKey = `${Method} ${string}`;
export type OperationDocs = Record<OperationKey, OperationDoc>;

/** Typed identity, so each surface's file gets completion and checking of its entries. */
export const defineOperations = <T extends OperationDocs>(operations: T): T => operations;
