import { isIP } from 'node:net';
import * as z from 'zod/mini';
import { createDeliveryQueue, createWebhook, deleteWebhook, EVENT_TYPES, getWebhook, isForbiddenAddress, isValidSecret, listDeliveries, listWebhooks, redeliver, regenerateSecret, sendTestEvent, updateWebhook, type Webhook } from '../../../shared/messaging/index.js';
import { type AnswerKeeping, created, httpUrl, json, noContent, ok, paginationQuery, type Route } from '../../../shared/platform/http/index.js';
import { type Deps, lazily } from '../../../shared/platform/index.js';
import type { SecretBox } from '../../../shared/platform/secrets/index.js';
import type { Caller } from '../authenticate.js';
import { ID_KINDS } from '../id-kinds.js';
import type { RouteBuilders } from '../route.js';

/** A literal address the guard would refuse at send time is refused when the webhook is saved, too. */
function isRefusedLiteral(url: string): boolean {
  // Not a URL at all: the URL rule before this one has already said so.
  if (!URL.canParse(url)) return false;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || (isIP(host) !== 0 && isForbiddenAddress(host));
}

function webhookSchemas(deps: Deps) {
  const { runtime, webhooks } = deps.config;
  const url = httpUrl.check(
    z.refine((value) => runtime !== 'aws' || value.startsWith('https://'), 'must be an https URL'),
    z.refine((value) => !webhooks.addressGuard || !isRefusedLiteral(value), 'must not point to a private or loopback address'),
  );
  const fields = {
    name: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
    url,
    events: z.pipe(
      z.array(z.enum(EVENT_TYPES)).check(z.minLength(1, 'must name at least one event'), z.maxLength(100)),
      z.transform((events) => [...new Set(events)]),
    ),
    enabled: z.boolean(),
  };
  return {
    create: z.strictObject({
      ...fields,
      enabled: z.optional(fields.enabled),
      secret: z.optional(z.string().check(z.maxLength(200), z.refine(isValidSecret, 'must be whsec_ followed by base64 of 24 to 64 bytes'))),
    }),
    update: z.partial(z.strictObject(fields)),
  };
}

/** Built with the first request that reads it (functions/management/route.ts: `SchemaSource`). */
const deliveriesQuery = lazily(() => z.strictObject(paginationQuery()));

type WebhookRouteDeps = Deps & { secrets: SecretBox };

/**
 * A create or regenerate answer is kept for replays (`Idempotency-Key`) without its secret, which the table never holds
 * in clear; a replay reads the webhook's secret again (its current one: the one that request made, unless it was
 * regenerated since), and is 404 once the webhook is deleted.
 */
function webhookAnswerKept(deps: WebhookRouteDeps, caller: Caller): AnswerKeeping {
  return {
    redact: (answer) => {
      const { secret: _secret, ...webhook } = JSON.parse(answer.body!) as Webhook;
      return { ...answer, body: JSON.stringify(webhook) };
    },
    restore: async (answer) => {
      const webhook = JSON.parse(answer.body!) as Omit<Webhook, 'secret'>;
      const { secret } = await getWebhook(deps, caller.tenantId, webhook.id);
      return { ...answer, body: JSON.stringify({ ...webhook, secret }) };
    },
  };
}

export function webhookRoutes(deps: WebhookRouteDeps, { authed }: RouteBuilders): Route[] {
  const schemas = lazily(() => webhookSchemas(deps));
  const queue = createDeliveryQueue(deps.config);
  const byId = { pathIds: { id: ID_KINDS.webhook } };
  const keptAnswer = (caller: Caller) => webhookAnswerKept(deps, caller);
  return [
    authed('GET', '/api/webhooks', { permission: 'read' }, async ({ caller }) => ok({ items: await listWebhooks(deps, caller.tenantId), events: EVENT_TYPES })),
    authed('POST', '/api/webhooks', { body: () => schemas().create, keptAnswer, verifiedOnly: true, permission: 'webhooks', audit: { action: 'webhook.create', target: 'webhook' } }, async ({ caller, body }) =>
      created(await createWebhook(deps, caller.tenantId, body)),
    ),
    authed('GET', '/api/webhooks/{id}', { ...byId, permission: 'readSecrets' }, async ({ caller, params }) => ok(await getWebhook(deps, caller.tenantId, params.id!))),
    authed('PUT', '/api/webhooks/{id}', { ...byId, body: () => schemas().update, verifiedOnly: true, permission: 'webhooks', audit: { action: 'webhook.update', target: 'webhook' } }, async ({ caller, params, body }) =>
      ok(await updateWebhook(deps, caller.tenantId, params.id!, body)),
    ),
    authed('DELETE', '/api/webhooks/{id}', { ...byId, permission: 'webhooks', audit: { action: 'webhook.delete', target: 'webhook' } }, async ({ caller, params }) => {
      await deleteWebhook(deps, caller.tenantId, params.id!);
      return noContent();
    }),
    authed('POST', '/api/webhooks/{id}/regenerate-secret', { ...byId, keptAnswer, verifiedOnly: true, permission: 'webhooks', audit: { action: 'webhook.regenerateSecret', target: 'webhook' } }, async ({ caller, params }) =>
      ok(await regenerateSecret(deps, caller.tenantId, params.id!)),
    ),
    authed('POST', '/api/webhooks/{id}/test', { ...byId, verifiedOnly: true, permission: 'webhooks', audit: false }, async ({ caller, params }) => ok(await sendTestEvent(deps, caller.tenantId, params.id!))),
    authed('GET', '/api/webhooks/{id}/deliveries', { ...byId, query: deliveriesQuery, permission: 'read' }, async ({ caller, params, query }) =>
      ok(await listDeliveries(deps, caller.tenantId, params.id!, { page: query.page, perPage: query.per_page })),
    ),
    authed('POST', '/api/webhooks/{id}/deliveries/{deliveryId}/redeliver', { pathIds: { id: ID_KINDS.webhook, deliveryId: ID_KINDS.delivery }, verifiedOnly: true, permission: 'webhooks', audit: { action: 'webhook.redeliver', target: 'delivery', idField: 'deliveryId' } }, async ({ caller, params }) =>
      json(202, await redeliver({ ...deps, queue }, caller.tenantId, params.id!, params.deliveryId!)),
    ),
  ];
}
