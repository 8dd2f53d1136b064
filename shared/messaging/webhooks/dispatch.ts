import { writeItem } from '../../platform/data/index.js';
import { type DeliveryOutcome, metrics } from '../../platform/observability/index.js';
import type { Deps } from '../../platform/index.js';
import { getDeliveryItem } from './deliveries.js';
import { MAX_ATTEMPTS, retryDelaySeconds } from './retry-schedule.js';
import { postJson, SEND_TIMEOUT_MS } from './send.js';
import type { SecretBox } from '../../platform/secrets/index.js';
import { signatureHeaders } from './signing.js';
import { webhookSecretOf } from './webhooks.js';

/** `secrets`: opens the webhooks' signing secrets (the dispatcher's grant: `webhook-secret` only). */
type DispatchDeps = Pick<Deps, 'data' | 'clock' | 'config'> & { secrets: SecretBox };

/** What to do with the queue message after an attempt. */
export type AttemptOutcome =
  /** Delivered, given up for good, or nothing left to do: delete the message. */
  | { kind: 'done' }
  /** Keep the message hidden this long; it comes back for the next attempt. */
  | { kind: 'retry'; afterSeconds: number }
  /** The last attempt failed: the delivery is `failed` and the message belongs in the dead-letter queue. */
  | { kind: 'dead' };

/** A message may come back this much before the recorded next attempt (clocks differ) and still be on time. */
const EARLY_TOLERANCE_MS = 1000;
/** A receiver that answers 410 Gone asks for no more deliveries: its webhook is disabled. */
const GONE = 410;
/**
 * How long a claimed attempt holds the delivery: its send, at most SEND_TIMEOUT_MS, and its settling. A copy of the
 * message that arrives meanwhile waits it out (then finds the attempt settled); one whose holder crashed sends again.
 */
const ATTEMPT_LEASE_MS = SEND_TIMEOUT_MS + 5_000;

/**
 * Makes the next attempt of a delivery, if one is due. Idempotent on the delivery id: a duplicate or
 * redelivered message never sends a delivery that succeeded or failed, nor one whose next attempt is not
 * due, and two copies handled at once make one attempt: the attempt is claimed by a conditional write, and the claim
 * holds the delivery (`nextAttemptAt`) until the attempt is settled, so a copy read after the claim does not send too.
 */
export async function attemptDelivery(deps: DispatchDeps, deliveryId: string): Promise<AttemptOutcome> {
  const delivery = await getDeliveryItem(deps, deliveryId);
  if (!delivery || delivery.status !== 'pending') return { kind: 'done' };
  const now = deps.clock.now();
  if (delivery.nextAttemptAt) {
    const wait = Date.parse(delivery.nextAttemptAt) - now.getTime();
    if (wait > EARLY_TOLERANCE_MS) return { kind: 'retry', afterSeconds: Math.ceil(wait / 1000) };
  }

  const { data: webhook } = await deps.data.entities.webhook.get({ webhookId: delivery.webhookId }).go({ consistent: true });
  if (!webhook || webhook.tenantId !== delivery.tenantId || !webhook.enabled) {
    await settle(deps, deliveryId, { status: 'failed', lastError: webhook ? 'Webhook disabled' : 'Webhook deleted' });
    return { kind: 'done' };
  }

  // Every attempt was made (the last one's outcome was lost to a crash): give up without another send.
  if (delivery.attempts >= MAX_ATTEMPTS) {
    await settle(deps, deliveryId, { status: 'failed', lastError: delivery.lastError ?? 'Gave up after the last attempt' });
    return { kind: 'dead' };
  }
  const attempt = delivery.attempts + 1;
  const claimed = await writeItem(() =>
    deps.data.entities.delivery
      .patch({ deliveryId })
      .set({ attempts: attempt, lastAttemptAt: now.toISOString(), nextAttemptAt: new Date(now.getTime() + ATTEMPT_LEASE_MS).toISOString() })
      .where(({ status, attempts }, { eq }) => `${eq(status, 'pending')} AND ${eq(attempts, delivery.attempts)}`)
      .go(),
  );
  // Another copy of the message claimed this attempt; that copy carries the delivery on.
  if (!claimed.written) return { kind: 'done' };

  const headers = signatureHeaders(await webhookSecretOf(deps.secrets, webhook), delivery.eventId, delivery.payload, now);
  const result = await postJson(webhook.url, delivery.payload, headers, { guard: deps.config.webhooks.addressGuard });
  await markTriggered(deps, webhook.webhookId, now, result.status === GONE);

  // Status 0: no answer at all; the reason is kept as `lastError`.
  const answer = { responseStatus: result.status, lastError: result.status ? undefined : result.statusText };
  if (result.success) {
    await settle(deps, deliveryId, { status: 'succeeded', ...answer });
    return { kind: 'done' };
  }
  if (result.status === GONE) {
    await settle(deps, deliveryId, { status: 'failed', ...answer });
    return { kind: 'done' };
  }
  const delay = retryDelaySeconds(attempt, deps.config.webhooks.retryScale);
  if (delay === null) {
    await settle(deps, deliveryId, { status: 'failed', ...answer });
    return { kind: 'dead' };
  }
  const nextAttemptAt = new Date(now.getTime() + delay * 1000).toISOString();
  await settle(deps, deliveryId, { status: 'pending', nextAttemptAt, ...answer });
  return { kind: 'retry', afterSeconds: delay };
}

type Settlement = {
  status: 'pending' | 'succeeded' | 'failed';
  responseStatus?: number;
  lastError?: string;
  nextAttemptAt?: string;
};

/** Each attempt that reaches an end is settled once: the place to count how attempts end. */
const OUTCOMES: Record<Settlement['status'], DeliveryOutcome> = { pending: 'retried', succeeded: 'succeeded', failed: 'failed' };

async function settle(deps: DispatchDeps, deliveryId: string, settlement: Settlement): Promise<void> {
  const absent = (['lastError', 'nextAttemptAt'] as const).filter((field) => settlement[field] === undefined);
  const set = Object.fromEntries(Object.entries(settlement).filter(([, value]) => value !== undefined)) as Settlement;
  // Only the holder of the claimed attempt settles it, so the write needs no condition of its own.
  await writeItem(() => deps.data.entities.delivery.patch({ deliveryId }).set(set).remove(absent).go());
  metrics.webhookDelivery(OUTCOMES[settlement.status]);
}

/** Records the send on the webhook (and disables it on 410); a webhook deleted meanwhile is left alone (refused). */
async function markTriggered(deps: DispatchDeps, webhookId: string, at: Date, gone: boolean): Promise<void> {
  await writeItem(() =>
    deps.data.entities.webhook
      .patch({ webhookId })
      .set({ lastTriggeredAt: at.toISOString(), ...(gone ? { enabled: false, updatedAt: at.toISOString() } : {}) })
      .go(),
  );
}
