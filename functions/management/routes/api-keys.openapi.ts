import * as z from 'zod/mini';
import { type ApiKeySummary as ApiKeySummaryView, ASSIGNABLE_ROLES, type createApiKey } from '../../../shared/identity/index.js';
import { assertDescribes, defineOperations, EX, idOf, named, nullableTimestamp, timestamp } from '../../../shared/platform/openapi/index.js';

const fields = { id: idOf('key'), name: z.string(), prefix: z.string(), role: z.enum(ASSIGNABLE_ROLES), createdAt: timestamp };

export const ApiKeySummary = named(
  'ApiKeySummary',
  z.object({ ...fields, lastUsedAt: nullableTimestamp }),
  'A secret API key as lists show it: never the key itself. `prefix` is its first 12 characters; `lastUsedAt` moves at most once a minute.',
);
assertDescribes<typeof ApiKeySummary, ApiKeySummaryView>(true);

export const CreatedApiKey = named(
  'CreatedApiKey',
  z.object({ ...fields, key: z.string().check(z.regex(/^sk_[a-z2-7]{32}$/)) }),
  'A new secret API key: `key` (`sk_` and 32 base32 characters) is shown this once and stored only as a hash.',
);
assertDescribes<typeof CreatedApiKey, Awaited<ReturnType<typeof createApiKey>>>(true);

const summary = { id: EX.apiKeyId, name: 'Production server', prefix: EX.secretKey.slice(0, 12), role: 'admin', createdAt: EX.created };

export const apiKeyOperations = defineOperations({
  'POST /api/api-keys': {
    summary: 'Create a secret API key',
    description:
      'The key authenticates every `/api` route as its owner (`Authorization: Bearer sk_…`, no cookie, no `Origin`) and every `/v1/portal` route, ' +
      'except the account\'s own credentials: creating or revoking keys, the password, the profile, logout and the verification e-mail need a ' +
      'signed-in session (an API key there is 403), so revoking a leaked key locks its holder out. The key acts in the current tenant with its ' +
      '`role` (DECISIONS §17): default `admin` (the creator\'s own role when that is lower), never `owner`; a role above the creator\'s is 403.',
    requestBody: { examples: { create: { name: 'Production server' }, support: { name: 'Helpdesk tool', role: 'support' } } },
    responses: { 201: { description: 'The key, shown once', body: CreatedApiKey, examples: { created: { ...summary, key: EX.secretKey } } } },
  },
  'GET /api/api-keys': {
    summary: 'List API keys',
    description: 'Newest first, not paginated.',
    responses: {
      200: {
        description: 'The keys',
        body: named('ApiKeyList', z.object({ items: z.array(ApiKeySummary) })),
        examples: { keys: { items: [{ ...summary, lastUsedAt: EX.updated }] } },
      },
    },
  },
  'DELETE /api/api-keys/{id}': {
    summary: 'Revoke an API key',
    description: 'The key stops working at once. A signed-in session only: an API key cannot revoke keys (403).',
    responses: { 204: { description: 'Revoked' } },
  },
});
