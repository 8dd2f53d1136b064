import { withAudit } from '../../identity/index.js';
import type Stripe from 'stripe';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/index.js';
import { logger, metrics } from '../../platform/observability/index.js';
import { claimEvent, markProcessed, releaseClaim } from './event-claims.js';
import { claimLost, EVENT_IN_PROGRESS, ignored, type Applied, type EventContext, type WebhookDeps } from './event-context.js';
import { failSubscriptionPayment } from './payment-failure.js';
import { completePurchase } from './purchase.js';
import { refundCharge } from './refund.js';
import { renewSubscription } from './renewal.js';
import { endSubscription, syncSubscription } from './subscription-sync.js';

export const UNKNOWN_VENDOR = 'Not found';
export const BAD_SIGNATURE = 'Invalid Stripe signature';
/** Stripe's own default: a signed delivery older than this is refused, so a captured one cannot be replayed later. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** What a delivery came to: applied now, a replay of one already processed, or ignored (nothing to change). */
export type Receipt = { outcome: 'processed' | 'duplicate' | 'ignored' };

type Handler = (ctx: EventContext, object: never) => Promise<Applied>;

/** The events that change anything (DECISIONS §6); every other type is acknowledged and ignored. */
const HANDLERS: Partial<Record<Stripe.Event['type'], Handler>> = {
  'checkout.session.completed': completePurchase,
  'checkout.session.async_payment_succeeded': completePurchase,
  'invoice.paid': renewSubscription,
  'invoice.payment_failed': failSubscriptionPayment,
  'customer.subscription.updated': syncSubscription,
  'customer.subscription.deleted': endSubscription,
  'charge.refunded': refundCharge,
};

/**
 * One Stripe delivery to a vendor's webhook URL: the signature is checked on the raw body with that vendor's
 * webhook secret (so an event signed for another vendor is refused), the event id is claimed, and the event is
 * applied in one transaction with its processed mark. A refused delivery changes nothing, the claim included.
 */
export async function receiveStripeEvent(deps: WebhookDeps, tenantId: string, raw: Buffer, signature: string | undefined, baseUrl: string): Promise<Receipt> {
  const { data: provider } = await deps.data.entities.paymentProvider.get({ tenantId }).go({ consistent: true });
  if (!provider) throw new NotFoundError(UNKNOWN_VENDOR);
  const [secretKey, webhookSecret] = await Promise.all([
    deps.payments.secrets.open(provider.sealedSecretKey, tenantId),
    deps.payments.secrets.open(provider.sealedWebhookSecret, tenantId),
  ]);
  const stripe = await deps.payments.stripe(secretKey);
  let event: Stripe.Event;
  try {
    event = stripe.webhooks.constructEvent(raw, signature ?? '', webhookSecret, SIGNATURE_TOLERANCE_SECONDS);
  } catch {
    throw new BadRequestError(BAD_SIGNATURE);
  }
  metrics.stripeEvent(event.type);

  const claimed = await claimEvent(deps, tenantId, event);
  if (claimed.kind === 'processed') return { outcome: 'duplicate' };
  if (claimed.kind === 'busy') throw new ConflictError(EVENT_IN_PROGRESS);
  const ctx: EventContext = { deps, tenantId, claim: claimed.claim, eventCreated: event.created, stripe,
    seller: { name: provider.sellerName, replyTo: provider.replyTo },
    baseUrl,
  };
  let applied: Applied;
  try {
    const handler = HANDLERS[event.type];
    // What the event changes is recorded in the tenant's audit log as the service's own doing (DECISIONS §17).
    const audit = { tenantId, actor: { type: 'system' as const, id: 'stripe' }, action: `stripe.${event.type}`, now: () => deps.clock.now() };
    applied = handler
      ? await withAudit({ ...audit, target: { type: 'stripeEvent', id: event.id, entity: false } }, () => handler(ctx, event.data.object as never))
      : ignored('event type not handled');
  } catch (error) {
    // The claim is let go so that Stripe's retry proceeds at once; a lost claim is the other delivery's.
    await releaseClaim(deps, claimed.claim).catch((release: unknown) => logger.warn('Stripe event claim not released', { error: release }));
    throw error;
  }
  if (applied.kind === 'applied') return { outcome: 'processed' };
  logger.info('Stripe event ignored', { tenantId, stripeEventId: event.id, type: event.type, reason: applied.reason });
  if (!(await markProcessed(deps, claimed.claim))) throw claimLost();
  return { outcome: 'ignored' };
}
