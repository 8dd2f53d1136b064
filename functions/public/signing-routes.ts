import * as z from 'zod/mini';
import { clientNetwork } from '../../shared/platform/http/client-address.js';
import { query } from '../../shared/platform/http/request.js';
import { ok } from '../../shared/platform/http/responses.js';
import { lazyInput, type Route } from '../../shared/platform/http/route.js';
import { lazily } from '../../shared/platform/lazily.js';
import { requiredText } from '../../shared/platform/http/plugin-fields.js';
import { parseInput } from '../../shared/platform/http/validation.js';
import { RATE_LIMITS } from '../../shared/platform/rate-limits/limits.js';
import type { RateLimiter } from '../../shared/platform/rate-limits/rate-limiter.js';
import type { Deps } from '../../shared/platform/runtime.js';
import { signingKeysOf } from '../../shared/licensing/signing/key-directory.js';

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
