import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { Client } from './client.js';

/** Only for signing test events: `generateTestHeaderString` needs an instance, never one that calls Stripe. */
const signer = new Stripe('sk_test_signer_only');

export const stripeId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
export const unixNow = () => Math.floor(Date.now() / 1000);

/** A Stripe event around `object`, as Stripe sends it; `created` (unix s) now unless given. */
export function stripeEvent(type: string, object: Record<string, unknown>, created = unixNow()) {
  return { id: stripeId('evt'), object: 'event', api_version: '2025-10-29.clover', created, type, data: { object }, livemode: false, pending_webhooks: 1, request: { id: null, idempotency_key: null } };
}

/** A subscription as Stripe's current API shows it: the period on its first item. */
export function stripeSubscription(fields: { id?: string; start: number; end: number; status?: string; cancelAtPeriodEnd?: boolean; canceledAt?: number | null }) {
  return {
    id: fields.id ?? stripeId('sub'),
    object: 'subscription',
    status: fields.status ?? 'active',
    cancel_at_period_end: fields.cancelAtPeriodEnd ?? false,
    canceled_at: fields.canceledAt ?? null,
    items: { object: 'list', data: [{ id: stripeId('si'), object: 'subscription_item', current_period_start: fields.start, current_period_end: fields.end }] },
  };
}

/**
 * Posts an event to a vendor's webhook URL as Stripe does: the raw JSON, signed with `secret` at `timestamp`
 * (now by default); `signature: null` leaves the header out.
 */
export function deliver(path: string, event: object, secret: string, options: { timestamp?: number; signature?: string | null } = {}) {
  const payload = JSON.stringify(event);
  const signature = options.signature === undefined ? signer.webhooks.generateTestHeaderString({ payload, secret, timestamp: options.timestamp }) : options.signature;
  return new Client().request('POST', path, {
    rawBody: payload,
    headers: { 'content-type': 'application/json', ...(signature !== null && { 'stripe-signature': signature }) },
    origin: null,
  });
}
