import { deleteItems, transact } from '../../platform/data/index.js';
import { type Deps, newId, NotFoundError } from '../../platform/index.js';
import type { EventType } from '../events/event-types.js';
import type { SealContext, SecretBox } from '../../platform/secrets/index.js';
import { generateSecret } from './signing.js';

/** Webhooks' secrets are sealed in the table: writing or showing one takes the secret box. */
type WebhookDeps = Pick<Deps, 'data' | 'clock'> & { secrets: SecretBox };

export type WebhookInput = { name: string; url: string; events: EventType[]; secret?: string; enabled?: boolean };
export type WebhookChanges = Partial<Pick<WebhookInput, 'name' | 'url' | 'events' | 'enabled'>>;

export type WebhookItem = Awaited<ReturnType<typeof loadWebhook>>;

/** What a webhook's sealed secret is bound to: KMS opens it for this webhook of this tenant only. */
const secretContext = (item: Pick<WebhookItem, 'tenantId' | 'webhookId'>): SealContext => ({ tenant: item.tenantId, kind: 'webhook-secret', webhook: item.webhookId });

/** The webhook's signing secret: its sealed one opened, or the clear one of a webhook made before secrets were sealed. */
export async function webhookSecretOf(secrets: SecretBox, item: Pick<WebhookItem, 'tenantId' | 'webhookId' | 'sealedSecret' | 'secret'>): Promise<string> {
  if (item.sealedSecret !== undefined) return secrets.open(item.sealedSecret, secretContext(item));
  if (item.secret !== undefined) return item.secret;
  throw new Error(`Webhook ${item.webhookId} has no secret`);
}

const sealSecret = (secrets: SecretBox, item: Pick<WebhookItem, 'tenantId' | 'webhookId'>, secret: string) => secrets.seal(secret, secretContext(item));

/** The webhook as the management API shows it, with its secret opened. */
export function toWebhook(item: WebhookItem, secret: string) {
  return {
    id: item.webhookId,
    name: item.name,
    url: item.url,
    secret,
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

const shown = async (deps: WebhookDeps, item: WebhookItem): Promise<Webhook> => toWebhook(item, await webhookSecretOf(deps.secrets, item));

export async function getWebhook(deps: WebhookDeps, tenantId: string, webhookId: string): Promise<Webhook> {
  return shown(deps, await loadWebhook(deps, tenantId, webhookId));
}

/** Every webhook of a tenant, oldest first (a tenant has few; the fan-out reads them the same way). */
export async function listWebhookItems(deps: Pick<Deps, 'data'>, tenantId: string) {
  const { data } = await deps.data.entities.webhook.query.byTenant({ tenantId }).go({ pages: 'all' });
  return data;
}

/** Every webhook of a tenant, each with its secret opened (one KMS Decrypt per webhook a container has not opened yet). */
export async function listWebhooks(deps: WebhookDeps, tenantId: string): Promise<Webhook[]> {
  return Promise.all((await listWebhookItems(deps, tenantId)).map((item) => shown(deps, item)));
}

export async function createWebhook(deps: WebhookDeps, tenantId: string, input: WebhookInput): Promise<Webhook> {
  const now = deps.clock.now().toISOString();
  const webhookId = newId('whk');
  const secret = input.secret ?? generateSecret();
  const item = {
    webhookId,
    tenantId,
    name: input.name,
    url: input.url,
    sealedSecret: await sealSecret(deps.secrets, { tenantId, webhookId }, secret),
    events: input.events,
    enabled: input.enabled ?? true,
    createdAt: now,
    updatedAt: now,
  };
  const outcome = await transact(deps.data, (tx) => ({ webhook: tx.webhook.create(item).commit() }));
  if (!outcome.committed) throw new Error('webhook id collision');
  return toWebhook(item, secret);
}

/**
 * Writes `set` (and removes `remove`) only on a webhook that still exists and is the tenant's (a concurrent delete
 * wins); answers it with its secret opened.
 */
async function patchWebhook(
  deps: WebhookDeps,
  tenantId: string,
  webhookId: string,
  set: Partial<WebhookItem>,
  remove: 'secret'[] = [],
): Promise<Webhook> {
  await loadWebhook(deps, tenantId, webhookId);
  // A transaction (its audit entry rides with it), then the webhook as written.
  const outcome = await transact(deps.data, (tx) => ({
    webhook: tx.webhook
      .patch({ webhookId })
      .set({ ...set, updatedAt: deps.clock.now().toISOString() })
      .remove(remove)
      .where(({ tenantId: owner }, { eq }) => eq(owner, tenantId))
      .commit(),
  }));
  if (!outcome.committed) throw new NotFoundError('Webhook not found');
  return shown(deps, (await loadWebhook(deps, tenantId, webhookId)) as WebhookItem);
}

export function updateWebhook(deps: WebhookDeps, tenantId: string, webhookId: string, changes: WebhookChanges): Promise<Webhook> {
  return patchWebhook(deps, tenantId, webhookId, changes);
}

/**
 * A new secret replaces the old one at once: every later send, retries included, signs with the new one. It is
 * sealed, and a clear secret left from before secrets were sealed goes with the old one.
 */
export async function regenerateSecret(deps: WebhookDeps, tenantId: string, webhookId: string): Promise<Webhook> {
  const sealedSecret = await sealSecret(deps.secrets, { tenantId, webhookId }, generateSecret());
  return patchWebhook(deps, tenantId, webhookId, { sealedSecret }, ['secret']);
}

/** Deletes the webhook; its pending deliveries fail at their next attempt. */
export async function deleteWebhook(deps: Pick<Deps, 'data'>, tenantId: string, webhookId: string): Promise<void> {
  await loadWebhook(deps, tenantId, webhookId);
  await transact(deps.data, (tx) => ({ webhook: tx.webhook.delete({ webhookId }).commit() }));
}

/** Deletes every webhook of a tenant (an account taken over, DECISIONS §20); their pending deliveries fail at their next attempt. */
export async function deleteAllWebhooks(deps: Pick<Deps, 'data'>, tenantId: string): Promise<void> {
  const { webhook } = deps.data.entities;
  await deleteItems(
    (await listWebhookItems(deps, tenantId)).map(({ webhookId }) => ({ webhookId })),
    (keys) => webhook.delete(keys).go(),
  );
}
