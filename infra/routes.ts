/**
 * The HTTP API's routes: which function serves which path. The CDK stack creates exactly these
 * routes and the local gateway selects among them as API Gateway does, so the two cannot differ.
 */
export const SURFACES = ['management', 'edge', 'public', 'portal', 'stripeWebhook', 'docs'] as const;
export type Surface = (typeof SURFACES)[number];

/** Where each surface's handler lives, relative to the project root (`export const handler`). */
export const HANDLER_ENTRIES: Record<Surface, string> = {
  management: 'functions/management/handler.ts',
  edge: 'functions/edge/handler.ts',
  public: 'functions/public/handler.ts',
  portal: 'functions/portal/handler.ts',
  stripeWebhook: 'functions/stripe-webhook/handler.ts',
  docs: 'functions/docs/handler.ts',
};

/**
 * Each surface's Lambda timeout, in seconds: the stack's (infra/stack.ts) and the local gateway's, whose invocations
 * get a context with this much time (their calls' deadline, shared/platform/deadline.ts).
 */
export const SURFACE_TIMEOUT_SECONDS: Record<Surface, number> = {
  management: 10,
  edge: 10,
  public: 10,
  portal: 10,
  stripeWebhook: 10,
  docs: 10,
};

export type RouteSpec = { method: 'ANY' | 'GET' | 'HEAD' | 'OPTIONS' | 'POST'; path: string; surface: Surface };

/**
 * A route read with GET: an HTTP API sends a request only to a route of its own method or `ANY`, so `HEAD` (answered
 * as GET without a body) and the browsers' CORS preflight (`OPTIONS`, answered by the function: the API has no CORS
 * configuration) need routes of their own, or they are API Gateway's 404.
 */
const readable = (path: string, surface: Surface): RouteSpec[] => (['GET', 'HEAD', 'OPTIONS'] as const).map((method) => ({ method, path, surface }));

/** The HEAD and OPTIONS entries `readable` adds beside a GET route: they serve that route, not operations of their own. */
export const isReadableCompanion = (entry: RouteSpec) => entry.method === 'HEAD' || entry.method === 'OPTIONS';

export const ROUTES: RouteSpec[] = [
  { method: 'ANY', path: '/api/{proxy+}', surface: 'management' },
  ...readable('/health', 'management'),
  // Plugins' calls; later, more specific routes (`/v1/portal/{proxy+}`, `/v1/webhooks/stripe/{userId}`) win over this one.
  { method: 'ANY', path: '/v1/{proxy+}', surface: 'edge' },
  { method: 'ANY', path: '/public/v1/{proxy+}', surface: 'public' },
  // The licensed Composer repository (DECISIONS §24): read-only, under HTTP Basic auth with a license key.
  ...readable('/composer/{proxy+}', 'edge'),
  // The vendor's server with its secret key; `/dl` serves the signed links of portal downloads.
  { method: 'ANY', path: '/v1/portal/{proxy+}', surface: 'portal' },
  ...readable('/dl/{releaseId}', 'portal'),
  // The hosted customer portal (DECISIONS §25): its page, the link's and the buyer's forms, and its sign-in, which is
  // more specific than `/public/v1/{proxy+}`, so it wins there.
  ...readable('/portal', 'portal'),
  { method: 'ANY', path: '/portal/{proxy+}', surface: 'portal' },
  { method: 'POST', path: '/public/v1/portal/sign-in', surface: 'portal' },
  // Stripe's events for one vendor (DECISIONS §6): more specific than `/v1/{proxy+}`, so it wins there.
  { method: 'POST', path: '/v1/webhooks/stripe/{userId}', surface: 'stripeWebhook' },
  // The OpenAPI document and its reference page (infra/openapi.ts, docs/openapi.md): a function of their own, with
  // no table and no secrets, so neither the document nor the renderer lands in another function's bundle.
  ...readable('/openapi.json', 'docs'),
  ...readable('/docs', 'docs'),
  ...readable('/docs/{asset}', 'docs'),
];

/**
 * The first path segments of the service's routes (`/api`, `/v1`, `/public`, `/composer`, `/dl`, `/portal`, `/health`,
 * `/openapi.json`, `/docs`): every path under one of these is the service's, every other path the dashboard's. The local gateway and
 * the dashboard's CloudFront distribution split requests by the same list.
 */
export const SERVICE_PATH_PREFIXES: string[] = [...new Set(ROUTES.map((route) => `/${route.path.split('/')[1]}`))];
