import * as z from 'zod/mini';
import { ASSIGNABLE_ROLES, type AssignableRole, createApiKey, listApiKeys, revokeApiKey, ROLE_REFUSED, roleAtMost } from '../../../shared/identity/index.js';
import { type Deps, ForbiddenError, lazily } from '../../../shared/platform/index.js';
import { created, noContent, ok, type Route } from '../../../shared/platform/http/index.js';
import { ID_KINDS } from '../id-kinds.js';
import type { RouteBuilders } from '../route.js';

/** DECISIONS §17: a key's role defaults to `admin` (the creator's own when lower), never `owner`, never above the creator's. */
const createBody = lazily(() => z.strictObject({ name: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)), role: z.optional(z.enum(ASSIGNABLE_ROLES)) }));

export function apiKeyRoutes(deps: Deps, { authed }: RouteBuilders): Route[] {
  return [
    // Its answer holds the new key, shown once and stored only hashed: never kept for a replay (Idempotency-Key is ignored).
    // A key cannot mint keys nor revoke them (DECISIONS §13): revoking a leaked key locks its holder out.
    authed('POST', '/api/api-keys', { body: createBody, idempotent: false, sessionOnly: true, permission: 'apiKeys', audit: { action: 'apiKey.create', target: 'apiKey' } }, async ({ caller, body }) =>
      {
        const role = body.role ?? (roleAtMost('admin', caller.role) ? 'admin' : (caller.role as AssignableRole));
        if (!roleAtMost(role, caller.role)) throw new ForbiddenError(ROLE_REFUSED);
        return created(await createApiKey(deps, caller.tenantId, { name: body.name, role, createdBy: caller.userId }));
      },
    ),
    authed('GET', '/api/api-keys', { permission: 'read' }, async ({ caller }) => ok({ items: await listApiKeys(deps, caller.tenantId) })),
    authed('DELETE', '/api/api-keys/{id}', { pathIds: { id: ID_KINDS.apiKey }, sessionOnly: true, permission: 'apiKeys', audit: { action: 'apiKey.delete', target: 'apiKey' } }, async ({ caller, params }) => {
      await revokeApiKey(deps, caller.tenantId, params.id!);
      return noContent();
    }),
  ];
}
