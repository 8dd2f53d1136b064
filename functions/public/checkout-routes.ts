import * as z from 'zod/mini';
import { type Config, type Deps, lazily, NotFoundError } from '../../shared/platform/index.js';
import { clientNetwork, type HttpEvent, type HttpResult, lazyInput, ok, optionalText, parseInput, query, redirect, requestBaseUrl, requiredText, type Route } from '../../shared/platform/http/index.js';
import type { ProductCatalog } from '../../shared/licensing/index.js';
import { checkoutReturn, listPublicPlans, type PaymentDeps, startCheckout } from '../../shared/billing/index.js';
import { PLAN_NOT_FOUND } from '../../shared/catalog/index.js';
import { RATE_LIMITS, type RateLimiter } from '../../shared/platform/rate-limits/index.js';
import { forBrowsers } from './checkout-pages.js';

/** SERVICE-SPEC §4.5: the defaults, with the neutral word in place of the brand. */
const DEFAULT_ACTIVATE_PARAM = 'svc_activate';
const DEFAULT_PENDING_PARAM = 'svc_pending';

const paramName = (field: string, fallback: string) =>
  z.pipe(
    z.optional(z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, `${field} must be 1 to 64 letters, digits, _ or -`))),
    z.transform((name) => name ?? fallback),
  );

/** The routes' schemas, built with the first request that reads one (shared/platform/http/route.ts: `lazyInput`). */
const schemas = lazily(() => {
  const publicKeyQuery = { public_key: requiredText('public_key', 128) };
  /** Unknown query parameters are ignored, as on the rest of the public API; `public_key` is checked first. */
  const checkoutFields = {
    ...publicKeyQuery,
    email: z.optional(z.email({ error: 'email must be a valid e-mail address' }).check(z.maxLength(254, 'email must be at most 254 characters'))),
    // Stripe keeps metadata values to 500 characters, and the return URL travels in the session's metadata.
    return_url: z.optional(
      z.url({ protocol: /^https?$/, error: 'return_url must be an http(s) URL' }).check(z.maxLength(500, 'return_url must be at most 500 characters')),
    ),
    activate_param: paramName('activate_param', DEFAULT_ACTIVATE_PARAM),
    pending_param: paramName('pending_param', DEFAULT_PENDING_PARAM),
    promo: optionalText('promo', 50),
  };
  const plansQuery = z.object(publicKeyQuery);
  const checkoutQuery = z.object({ ...checkoutFields, plan: requiredText('plan', 64) });
  const checkoutByIdQuery = z.object(checkoutFields);
  const returnQuery = z.object({ session_id: requiredText('session_id', 256) });
  return { plansQuery, checkoutQuery, checkoutByIdQuery, returnQuery };
});


/** For whatever enumerates routes: `{planId}` takes `plan_…` or `pln_…`, and is checked by the domain (404 when neither). */
const PLAN_ID_KIND = { prefix: 'pln' as const, unknown: () => new NotFoundError(PLAN_NOT_FOUND) };

const THANK_YOU_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Thank you for your purchase</title></head>
<body><main><h1>Thank you for your purchase</h1><p>Your license key is on its way to you by e-mail.</p></main></body>
</html>
`;

const html = (body: string): HttpResult => ({ statusCode: 200, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }, body });

/** The public plan list, hosted checkout (query and path forms) and the way back from it (SERVICE-SPEC §4.5). */
export function checkoutRoutes(deps: Deps<Config<'links'>> & PaymentDeps, { catalog, limits }: { catalog: ProductCatalog; limits: RateLimiter }): Route[] {
  const baseUrlOf = (event: HttpEvent) => requestBaseUrl(event, deps.config.publicBaseUrl);
  /** As on the rest of the public API, a caller is an address using one product's public key. */
  const callerOf = (event: HttpEvent, publicKey: string) => `${publicKey}#${clientNetwork(event, deps.config)}`;
  const checkout = async (event: HttpEvent, input: z.infer<ReturnType<typeof schemas>['checkoutByIdQuery']>, plan: { slug: string } | { id: string }) => {
    await limits.take(RATE_LIMITS.checkout, callerOf(event, input.public_key));
    const url = await startCheckout(deps, catalog, {
      publicKey: input.public_key,
      plan,
      email: input.email,
      returnUrl: input.return_url,
      activateParam: input.activate_param,
      pendingParam: input.pending_param,
      baseUrl: baseUrlOf(event),
      promo: input.promo,
    });
    return redirect(303, url);
  };
  return [
    {
      method: 'GET',
      path: '/public/v1/plans',
      input: lazyInput({ query: () => schemas().plansQuery }),
      handler: async (event) => {
        const input = parseInput(schemas().plansQuery, query(event));
        await limits.take(RATE_LIMITS.publicReads, callerOf(event, input.public_key));
        return ok({ plans: await listPublicPlans(deps, catalog, input.public_key, baseUrlOf(event)) });
      },
    },
    {
      method: 'GET',
      path: '/public/v1/checkout',
      input: lazyInput({ query: () => schemas().checkoutQuery }),
      handler: async (event) =>
        forBrowsers(event, async () => {
          const input = parseInput(schemas().checkoutQuery, query(event));
          return checkout(event, input, { slug: input.plan });
        }),
    },
    {
      method: 'GET',
      path: '/public/v1/checkout/return',
      input: lazyInput({ query: () => schemas().returnQuery }),
      handler: async (event) => {
        const input = parseInput(schemas().returnQuery, query(event));
        const back = await checkoutReturn(deps, input.session_id);
        return back.kind === 'redirect' ? redirect(303, back.location) : html(THANK_YOU_PAGE);
      },
    },
    {
      method: 'GET',
      path: '/public/v1/checkout/{planId}',
      input: lazyInput({ query: () => schemas().checkoutByIdQuery, pathIds: { planId: PLAN_ID_KIND } }),
      handler: async (event) => forBrowsers(event, () => checkout(event, parseInput(schemas().checkoutByIdQuery, query(event)), { id: event.pathParameters!.planId! })),
    },
  ];
}
