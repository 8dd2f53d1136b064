import Stripe from 'stripe';
import { Client } from './client.js';
import { stripeId, unixNow } from './stripe-objects.js';

/** Only for signing test events: `generateTestHeaderString` needs an instance, never one that calls Stripe. */
const signer = new Stripe('sk_test_signer_only');

/** The event of a type, as the pinned API version shapes it: its `data.object` is that type's own object. */
export type StripeEventOf<T extends Stripe.Event['type']> = Extract<Stripe.Event, { type: T }>;

/** A Stripe event around `object`, as Stripe sends it at the package's API version; `created` (unix s) now unless given. */
export function stripeEvent<T extends Stripe.Event['type']>(type: T, object: StripeEventOf<T>['data']['object'], created = unixNow()): StripeEventOf<T> {
  const event = {
    id: stripeId('evt'),
    object: 'event',
    api_version: Stripe.API_VERSION,
    created,
    type,
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
  } satisfies Stripe.EventBase & { type: T };
  // The union member of `type` is chosen by `T`, which TypeScript does not narrow inside the function.
  return event as StripeEventOf<T>;
}

/**
 * Posts an event to a vendor's webhook URL as Stripe does: the raw JSON, signed with `secret` at `timestamp`
 * (now by default); `signature: null` leaves the header out.
 */
export function deliver(path: string, event: Stripe.Event, secret: string, options: { timestamp?: number; signature?: string | null } = {}) {
  const payload = JSON.stringify(event);
  const signature = options.signature === undefined ? signer.webhooks.generateTestHeaderString({ payload, secret, timestamp: options.timestamp }) : options.signature;
  return new Client().request('POST', path, {
    rawBody: payload,
    headers: { 'content-type': 'application/json', ...(signature !== null && { 'stripe-signature': signature }) },
    origin: null,
  });
}
