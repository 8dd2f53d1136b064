import { writeItem } from '../data/writes.js';
import { NotFoundError } from '../errors.js';
import type { EventType } from '../events/event-types.js';
import { newId } from '../ids.js';
import type { Deps } from '../runtime.js';
import { generateSecret } from './signing.js';

type WebhookDeps = Pick<Deps, 'data' | 'clock'>;

export type WebhookInput = { name: string; url: string; events: EventType[]; secret?: string; enabled?: boolean };
export type WebhookChanges = Partial<Pick<WebhookInput, 'name' | 'url' | 'events' | 'enabled'>>;

export type WebhookItem = Awaited<ReturnType<typeof loadWebhook>>;

export function toWebhook(item: WebhookItem) {
  return {
    id: item.webhookId,
    name: item.name,
    url: item.url,
    secret: item.secret,
    events: item.events,
    enabled: item.enabled,
    lastTriggeredAt: item.lastTriggeredAt ?? null,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
}
export type Webhook = ReturnType<typeof toWebhook>;

/** A tenant's webhook; another tenant's id is not found. */
export async function loadWebhook(deps: Pick<Deps, 'data'>, tenantId: string, webhookId: string) {
  const { data } = await deps.data.entities.webhook.get({ webhookId }).go({ consistent: true });
  if (!data || data.tenantId !== tenantId) throw new NotFoundError('Webhook not found');
  return data;
}

export async function getWebhook(deps: WebhookDeps, tenantId: string, webhookId: string): Promise<Webhook> {
  return toWebhook(await loadWebhook(deps, tenantId, webhookId));
}

/** Every webhook of a tenant, oldest first (a tenant has few; the fan-out reads them the same way). */
export async function listWebhookItems(deps: Pick<Deps, 'data'>, tenantId: string) {
  const { data } = await deps.data.entities.webhook.query.byTenant({ tenantId }).go({ pages: 'all' });
  return data;
}

export async function listWebhooks(deps: WebhookDeps, tenantId: string): Promise<Webhook[]> {
  return (await listWebhookItems(deps, tenantId)).map(toWebhook);
}

export async function createWebhook(deps: WebhookDeps, tenantId: string, input: WebhookInput): Promise<Webhook> {
  const now = deps.clock.now().toISOString();
  const item = {
    webhookId: newId('whk'),
    tenantId,
    name: input.name,
    url: input.url,
    secret: input.secret ?? generateSecret(),
    events: input.events,
    enabled: input.enabled ?? true,
    createdAt: now,
    updatedAt: now,
  };
  const written = await writeItem(() => deps.data.entities.webhook.create(item).go());
  if (!written.written) throw new Error('webhook id collision');
  return toWebhook(item);
}

/** Writes `set` only to a webhook that still exists and is the tenant's (a concurrent delete wins). */
async function patchWebhook(deps: WebhookDeps, tenantId: string, webhookId: string, set: Partial<WebhookItem>): Promise<Webhook> {
  await loadWebhook(deps, tenantId, webhookId);
  const written = await writeItem(() =>
    deps.data.entities.webhook
      .patch({ webhookId })
      .set({ ...set, updatedAt: deps.clock.now().toISOString() })
      .where(({ tenantId: owner }, { eq }) => eq(owner, tenantId))
      .go({ response: 'all_new' }),
  );
  if (!written.written) throw new NotFoundError('Webhook not found');
  return toWebhook(written.value.data as WebhookItem);
}

export function updateWebhook(deps: WebhookDeps, tenantId: string, webhookId: string, changes: WebhookChanges): Promise<Webhook> {
  return patchWebhook(deps, tenantId, webhookId, changes);
}

/** A new secret replaces the old one at once: every later send, retries included, signs with the new one. */
export function regenerateSecret(deps: WebhookDeps, tenantId: string, webhookId: string): Promise<Webhook> {
  return patchWebhook(deps, tenantId, webhookId, { secret: generateSecret() });
}

/** Deletes the webhook; its pending deliveries fail at their next attempt. */
export async function deleteWebhook(deps: WebhookDeps, tenantId: string, webhookId: string): Promise<void> {
  await loadWebhook(deps, tenantId, webhookId);
  await writeItem(() => deps.data.entities.webhook.delete({ webhookId }).go());
}
