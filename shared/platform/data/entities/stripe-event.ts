import { Entity } from 'electrodb';
import { model, primaryKey } from '../keys.js';

export const STRIPE_EVENT_STATES = ['processing', 'processed'] as const;

/**
 * A Stripe event id seen by a vendor's webhook, keyed by tenant and event id. A delivery claims it
 * (`processing`, with a lease and a token of its own); the transaction that applies the event sets
 * `processed` on the condition that the claim is still its own, so the event's changes commit at most once.
 * A claim whose lease has run out (a crashed invocation) may be taken over by Stripe's retry. TTL: 30 days,
 * longer than Stripe retries an event (3 days).
 */
export const stripeEventEntity = () =>
  new Entity({
    model: model('stripeEvent'),
    attributes: {
      tenantId: { type: 'string', required: true },
      stripeEventId: { type: 'string', required: true },
      type: { type: 'string', required: true },
      state: { type: STRIPE_EVENT_STATES, required: true },
      claimToken: { type: 'string', required: true },
      /** Unix seconds after which a `processing` claim may be taken over. */
      leaseUntil: { type: 'number', required: true },
      updatedAt: { type: 'string', required: true },
      ttl: { type: 'number', required: true },
    },
    indexes: { byEvent: primaryKey(['tenantId', 'stripeEventId']) },
  });

/**
 * Finds our record from a Stripe object's id: a subscription (`sub_…`) names our subscription and license, a
 * payment intent (`pi_…`) or invoice (`in_…`) our payment and license, a checkout session (`cs_…`) the license it
 * issued (created only if absent: one purchase per session). Written in the transaction that creates the record,
 * so later events (renewal, cancellation, refund) find it in one read.
 */
export const stripeRefEntity = () =>
  new Entity({
    model: model('stripeRef'),
    attributes: {
      tenantId: { type: 'string', required: true },
      stripeId: { type: 'string', required: true },
      subscriptionId: { type: 'string' },
      paymentId: { type: 'string' },
      licenseId: { type: 'string', required: true },
      customerId: { type: 'string', required: true },
    },
    indexes: { byStripeId: primaryKey(['tenantId', 'stripeId']) },
  });
