import * as z from 'zod/mini';
import { clientNetwork } from '../../shared/platform/http/client-address.js';
import { jsonBody } from '../../shared/platform/http/request.js';
import { created } from '../../shared/platform/http/responses.js';
import { lazyInput, type Route } from '../../shared/platform/http/route.js';
import { lazily } from '../../shared/platform/lazily.js';
import { requiredText } from '../../shared/platform/http/plugin-fields.js';
import { parseInput } from '../../shared/platform/http/validation.js';
import type { ProductCatalog } from '../../shared/licensing/operations/product-catalog.js';
import { RATE_LIMITS } from '../../shared/platform/rate-limits/limits.js';
import type { RateLimiter } from '../../shared/platform/rate-limits/rate-limiter.js';
import type { Deps } from '../../shared/platform/runtime.js';
import { startTrial } from '../../shared/billing/trials/start-trial.js';

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
export function trialRoutes(deps: Deps, { catalog, limits }: { catalog: ProductCatalog; limits: RateLimiter }): Route[] {
  return [
    {
      method: 'POST',
      path: '/public/v1/trials',
      input: lazyInput({ body: () => schemas().trialBody }),
      handler: async (event) => {
        const input = parseInput(schemas().trialBody, jsonBody(event));
        await limits.take(RATE_LIMITS.checkout, `${input.public_key}#${clientNetwork(event, deps.config)}`);
        return created(await startTrial(deps, catalog, { publicKey: input.public_key, plan: input.plan, email: input.email }));
      },
    },
  ];
}
