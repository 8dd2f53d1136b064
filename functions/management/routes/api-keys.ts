import * as z from 'zod/mini';
import { createApiKey, listApiKeys, revokeApiKey } from '../../../shared/accounts/api-keys.js';
import { created, noContent, ok } from '../../../shared/http/responses.js';
import type { Deps } from '../../../shared/runtime.js';
import type { Route } from '../../../shared/http/route.js';
import { ID_KINDS } from '../id-kinds.js';
import type { RouteBuilders } from '../route.js';

const createBody = z.strictObject({ name: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)) });

export function apiKeyRoutes(deps: Deps, { authed }: RouteBuilders): Route[] {
  return [
    // Its answer holds the new key, shown once and stored only hashed: never kept for a replay (Idempotency-Key is ignored).
    // A key cannot mint keys nor revoke them (DECISIONS §13): revoking a leaked key locks its holder out.
    authed('POST', '/api/api-keys', { body: createBody, idempotent: false, sessionOnly: true }, async ({ caller, body }) =>
      created(await createApiKey(deps, caller.userId, body.name)),
    ),
    authed('GET', '/api/api-keys', {}, async ({ caller }) => ok({ items: await listApiKeys(deps, caller.userId) })),
    authed('DELETE', '/api/api-keys/{id}', { pathIds: { id: ID_KINDS.apiKey }, sessionOnly: true }, async ({ caller, params }) => {
      await revokeApiKey(deps, caller.userId, params.id!);
      return noContent();
    }),
  ];
}
