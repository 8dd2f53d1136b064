import { readFileSync } from 'node:fs';
import { docsRoutes } from '../functions/docs/app.js';
import { docsOperations } from '../functions/docs/openapi.js';
import { WEBHOOK_DELIVERY_RULES, WEBHOOK_EVENTS } from '../functions/dispatcher/openapi.js';
import { edgeRoutes } from '../functions/edge/app.js';
import { edgeOperations } from '../functions/edge/openapi.js';
import { createManagementDeps, managementRoutes } from '../functions/management/app.js';
import { SESSION_REQUIRED } from '../functions/management/authenticate.js';
import { managementOperations } from '../functions/management/openapi.js';
import { createPortalRoutes } from '../functions/portal/app.js';
import { portalOperations } from '../functions/portal/routes.openapi.js';
import { publicRoutes } from '../functions/public/app.js';
import { publicOperations } from '../functions/public/openapi.js';
import { stripeWebhookRoutes } from '../functions/stripe-webhook/app.js';
import { stripeWebhookOperations } from '../functions/stripe-webhook/openapi.js';
import { API_KEY_MESSAGES } from '../shared/identity/accounts/bearer-key.js';
import { VERIFY_FIRST } from '../shared/identity/accounts/users.js';
import { ALL_CONFIG_SECTIONS, loadConfig } from '../shared/platform/config.js';
import { STATE_CHANGING_METHODS } from '../shared/platform/http/origin.js';
import type { Route } from '../shared/platform/http/route.js';
import { buildDocument, type ErrorMessages, type SurfaceDoc } from '../shared/platform/openapi/document.js';
import type { OperationDoc, OperationDocs, Security } from '../shared/platform/openapi/operation.js';
import { createRouteMatcher } from './local/route-match.js';
import { isReadableCompanion, ROUTES, SURFACES, type Surface } from './routes.js';

/**
 * The OpenAPI document of the whole service (`npm run openapi` writes it to docs/openapi.json; the docs
 * function serves that file at `/openapi.json`). Each surface's routes come from its app, exactly as its handler
 * builds them, and its operations from the `*.openapi.ts` files beside its route files; keyed by `Surface`, so a
 * new surface does not compile until it is documented. The document must also agree with `ROUTES`: every
 * operation is sent to its own surface's function by the gateway's route table, and every entry of the table
 * has an operation.
 */

type SurfaceConfig = {
  tag: SurfaceDoc['tag'];
  routes: () => Route[];
  operations: OperationDocs;
  security: (route: Route) => Security;
  errors: (route: Route, security: Security, doc: OperationDoc | undefined) => ErrorMessages;
};

const UNAVAILABLE = { 503: ['Service temporarily unavailable'] };
const JSON_BODY_ERRORS = {
  400: ['Malformed JSON body', 'Request body must be a JSON object'],
  413: ['Request body too large'],
  415: ['Content-Type must be application/json'],
};
const needsCredential = (security: Security) => security.every((alternative) => alternative.length > 0);
const isMultipart = (doc: OperationDoc | undefined) => doc?.requestBody?.contentType === 'multipart/form-data';

/** Errors of every route that reads the table: its body and storage. */
function baseErrors(route: Route, doc: OperationDoc | undefined, jsonBody: boolean): ErrorMessages[] {
  return [
    jsonBody && !isMultipart(doc) ? JSON_BODY_ERRORS : {},
    route.input?.body || route.input?.query ? { 400: ['<field> is required', '<field>: <reason>'] } : {},
    UNAVAILABLE,
  ];
}
const merge = (parts: ErrorMessages[]): ErrorMessages => {
  const out: ErrorMessages = {};
  for (const part of parts) for (const [status, messages] of Object.entries(part)) (out[Number(status)] ??= []).push(...(messages ?? []));
  return out;
};

function surfaces(): Record<Surface, SurfaceConfig> {
  // Routes are built as each handler builds them, with a configuration that reaches nothing: no request is made.
  const deps = createManagementDeps(loadConfig({ TABLE_NAME: 'openapi', RUNTIME: 'aws', AWS_REGION: 'us-east-1', BUCKET_NAME: 'openapi' }, ALL_CONFIG_SECTIONS));
  return {
    management: {
      tag: {
        name: 'Management API',
        description:
          'The vendor\'s dashboard and servers (`/api`): products, plans, releases, licenses, customers, activations, webhooks, the payment ' +
          'provider and API keys. Authenticated by the `session` cookie (state changes also need an allowed `Origin`) or a secret API key.',
      },
      routes: () => managementRoutes(deps),
      operations: managementOperations,
      // The account's own credentials are for a signed-in session only (DECISIONS §13): a key there is 403.
      security: (route) => (route.input?.sessionOnly ? [['sessionCookie']] : [['sessionCookie'], ['secretKey']]),
      errors: (route, security, doc) =>
        merge([
          needsCredential(security) ? { 401: [API_KEY_MESSAGES.missing, API_KEY_MESSAGES.invalid, API_KEY_MESSAGES.secretKeyRequired] } : {},
          STATE_CHANGING_METHODS.has(route.method) && needsCredential(security) ? { 403: ['Origin not allowed'] } : {},
          route.input?.sessionOnly ? { 403: [SESSION_REQUIRED] } : {},
          route.input?.verifiedOnly ? { 403: [VERIFY_FIRST] } : {},
          route.method === 'GET' && route.path === '/health' ? {} : merge(baseErrors(route, doc, STATE_CHANGING_METHODS.has(route.method))),
        ]),
    },
    edge: {
      tag: {
        name: 'Edge API',
        description:
          'Installed plugins (`/v1`), at volume and with no credential: validate, activate and deactivate license keys, the WordPress ' +
          'update check and the licensed download. Open to any origin.',
      },
      routes: () => edgeRoutes(deps),
      operations: edgeOperations,
      security: () => [[]],
      errors: (route, _security, doc) => merge(baseErrors(route, doc, route.method === 'POST')),
    },
    public: {
      tag: {
        name: 'Public API',
        description:
          'Distributed code identified by the product\'s public key (`/public/v1`): the license operations (with `public_key` in the ' +
          'body), the plans on sale and hosted checkout. No secret; open to any origin.',
      },
      routes: () => publicRoutes(deps),
      operations: publicOperations,
      security: (route) => (route.input?.query && 'public_key' in ((route.input.query as { _zod: { def: { shape?: object } } })._zod.def.shape ?? {}) ? [['publicKey']] : [[]]),
      errors: (route, _security, doc) => merge(baseErrors(route, doc, route.method === 'POST')),
    },
    portal: {
      tag: {
        name: 'Portal API',
        description:
          'The vendor\'s own server asking about one of its customers by e-mail (`/v1/portal`), with a secret API key; every answer is ' +
          '`{data: …}`. Never call it from a browser. Also the signed download links it hands out (`/dl`), and the hosted customer ' +
          'portal (`/portal`, DECISIONS §25): the pages buyers sign in to by e-mailed link, and its sign-in `/public/v1/portal/sign-in`.',
      },
      routes: () => createPortalRoutes(deps),
      operations: portalOperations,
      security: () => [['secretKey']],
      errors: (route, security, doc) =>
        merge([
          needsCredential(security) ? { 401: [API_KEY_MESSAGES.missing, API_KEY_MESSAGES.invalid, API_KEY_MESSAGES.secretKeyRequired] } : {},
          ...baseErrors(route, doc, false),
        ]),
    },
    stripeWebhook: {
      tag: { name: 'Stripe webhook', description: 'Where each vendor\'s Stripe account sends its events (`/v1/webhooks/stripe/{userId}`).' },
      routes: () => stripeWebhookRoutes(deps),
      operations: stripeWebhookOperations,
      security: () => [['stripeSignature']],
      errors: (route, _security, doc) => merge(baseErrors(route, doc, false)),
    },
    docs: {
      tag: { name: 'Reference', description: 'This document and its browsable reference page, served by the service itself.' },
      routes: () => docsRoutes(() => Buffer.alloc(0)),
      operations: docsOperations,
      security: () => [[]],
      errors: () => ({}),
    },
  };
}

const DESCRIPTION = `Licensing and distribution service for software vendors: products, releases, plans, license keys with seat
limits, customers, per-domain activations, outbound webhooks, hosted checkout and a customer portal.

| Surface | Prefix | Identification |
|---|---|---|
| Management API | \`/api\` | \`session\` cookie, or \`Authorization: Bearer sk_…\` |
| Edge API | \`/v1\` | none |
| Public API | \`/public/v1\` | the product's \`public_key\` |
| Portal API | \`/v1/portal\` | \`Authorization: Bearer sk_…\` |

Conventions: JSON bodies and answers; errors are \`{"error": "<message>", "details"?: [{path, message}]}\` with the exact messages listed
under each status; ids are a type prefix, \`_\` and 24 characters of \`a-z2-7\`; timestamps are ISO 8601 in UTC; money is in major units
of its \`currency\`. Management lists take \`page\` and \`per_page\` (at most 100) and answer \`{items, pagination}\`. Over a rate limit the
answer is 429 with \`Retry-After\`; a 503 (storage throttled) may be retried; a 5xx other than 502 and 503 is a bug.
Outbound events are under *Webhooks*.`;

/** The OpenAPI 3.1 document, generated from the route table and the routes' and operations' zod schemas. */
export function generateOpenApiDocument(): Record<string, unknown> {
  const configs = surfaces();
  const version = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  const built = SURFACES.map((surface) => {
    const config = configs[surface];
    const routes = config.routes();
    checkRouteTable(surface, routes);
    return {
      tag: config.tag,
      routes,
      operations: config.operations,
      security: config.security,
      errors: (route: Route, security: Security) => config.errors(route, security, config.operations[`${route.method} ${route.path}`]),
    } satisfies SurfaceDoc;
  });
  checkTableCovered(built.flatMap((surface) => surface.routes));
  return buildDocument({
    info: { title: 'Licensing service API', version, description: DESCRIPTION },
    surfaces: built,
    webhooks: { tag: { name: 'Webhooks', description: 'The events the service POSTs to vendors\' webhooks.' }, rules: WEBHOOK_DELIVERY_RULES, events: WEBHOOK_EVENTS },
  });
}

const samplePath = (path: string) => path.replace(/\{[^}]+\}/g, 'x');
const matchRoute = createRouteMatcher(ROUTES);

/** Every route of a surface's app reaches that surface's function through the gateway's route table. */
function checkRouteTable(surface: Surface, routes: Route[]): void {
  const wrong = routes.filter((route) => matchRoute(route.method, samplePath(route.path))?.route.surface !== surface);
  if (wrong.length) {
    throw new Error(`infra/routes.ts does not send these ${surface} routes to the ${surface} function: ${wrong.map((r) => `${r.method} ${r.path}`).join(', ')}`);
  }
}

/** Every entry of the route table serves at least one documented route (a GET route's HEAD and OPTIONS serve it). */
function checkTableCovered(routes: Route[]): void {
  const used = new Set(routes.map((route) => matchRoute(route.method, samplePath(route.path))?.route));
  const unused = ROUTES.filter((entry) => !isReadableCompanion(entry) && !used.has(entry));
  if (unused.length) throw new Error(`infra/routes.ts has entries no documented route uses: ${unused.map((r) => `${r.method} ${r.path}`).join(', ')}`);
}

/** The document as committed in docs/openapi.json. */
export const serializeOpenApi = (document: unknown) => `${JSON.stringify(document, null, 2)}\n`;
