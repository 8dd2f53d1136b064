import * as z from 'zod/mini';
import { clientNetwork, lazyInput, ok, parseInput, query, requiredText, type Route } from '../../shared/platform/http/index.js';
import { type Deps, lazily } from '../../shared/platform/index.js';
import { RATE_LIMITS, type RateLimiter } from '../../shared/platform/rate-limits/index.js';
import { signingKeysOf } from '../../shared/licensing/index.js';

/** The routes' schemas, built with the first request that reads one (shared/platform/http/route.ts: `lazyInput`). */
const schemas = lazily(() => {
  const signingKeyQuery = z.object({ public_key: requiredText('public_key', 128) });
  return { signingKeyQuery };
});

/** The product's public signing keys, for clients that verify signed answers and offline license files. */
export function signingRoutes(deps: Deps, { limits }: { limits: RateLimiter }): Route[] {
  return [
    {
      method: 'GET',
      path: '/public/v1/signing-key',
      input: lazyInput({ query: () => schemas().signingKeyQuery }),
      handler: async (event) => {
        const input = parseInput(schemas().signingKeyQuery, query(event));
        await limits.take(RATE_LIMITS.publicReads, `${input.public_key}#${clientNetwork(event, deps.config)}`);
        // Clients fetch the keys again when an answer names a key id they do not know (a rotation): no caching.
        return ok({ keys: await signingKeysOf(deps, input.public_key) }, { headers: { 'cache-control': 'no-cache' } });
      },
    },
  ];
}
