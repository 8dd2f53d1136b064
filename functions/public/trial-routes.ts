import * as z from 'zod/mini';
import { clientNetwork, created, jsonBody, lazyInput, parseInput, requestBaseUrl, requiredText, type Route } from '../../shared/platform/http/index.js';
import { type Config, type Deps, lazily } from '../../shared/platform/index.js';
import type { ProductCatalog } from '../../shared/licensing/index.js';
import { RATE_LIMITS, type RateLimiter } from '../../shared/platform/rate-limits/index.js';
import { startTrial } from '../../shared/billing/index.js';

/** The route's schema, built with its first request (shared/platform/http/route.ts: `lazyInput`). */
const schemas = lazily(() => {
  /** Unknown fields are ignored, as on the rest of the public API. */
  const trialBody = z.object({
    public_key: requiredText('public_key', 128),
    plan: requiredText('plan', 64),
    email: z.email({ error: 'email must be a valid e-mail address' }).check(z.maxLength(254, 'email must be at most 254 characters')),
  });
  return { trialBody };
});

/** No-card trials (DECISIONS §15), limited per caller as checkout is. */
export function trialRoutes(deps: Deps<Config<'links'>>, { catalog, limits }: { catalog: ProductCatalog; limits: RateLimiter }): Route[] {
  return [
    {
      method: 'POST',
      path: '/public/v1/trials',
      input: lazyInput({ body: () => schemas().trialBody }),
      handler: async (event) => {
        const input = parseInput(schemas().trialBody, jsonBody(event));
        await limits.take(RATE_LIMITS.checkout, `${input.public_key}#${clientNetwork(event, deps.config)}`);
        return created(await startTrial(deps, catalog, { publicKey: input.public_key, plan: input.plan, email: input.email, baseUrl: requestBaseUrl(event, deps.config.publicBaseUrl) }));
      },
    },
  ];
}
