import { type Deps, newId } from '../../platform/index.js';
import type { SecretBox } from '../../platform/secrets/index.js';
import { postJson, type SendResult } from './send.js';
import { signatureHeaders } from './signing.js';
import { loadWebhook, webhookSecretOf } from './webhooks.js';

/** The management function has 10 s in all; the test send must answer within that. */
const TEST_TIMEOUT_MS = 8000;

/**
 * Sends a signed `webhook.test` event to the webhook's URL now (enabled or not) and reports the answer.
 * It is not a delivery: nothing is recorded and nothing is retried.
 */
export async function sendTestEvent(
  deps: Pick<Deps, 'data' | 'clock' | 'config'> & { secrets: SecretBox },
  tenantId: string,
  webhookId: string,
): Promise<SendResult> {
  const webhook = await loadWebhook(deps, tenantId, webhookId);
  const now = deps.clock.now();
  const id = newId('evt');
  const body = JSON.stringify({
    id,
    type: 'webhook.test',
    createdAt: now.toISOString(),
    data: { webhookId: webhook.webhookId, name: webhook.name },
  });
  return postJson(webhook.url, body, signatureHeaders(await webhookSecretOf(deps.secrets, webhook), id, body, now), {
    guard: deps.config.webhooks.addressGuard,
    timeoutMs: TEST_TIMEOUT_MS,
  });
}
