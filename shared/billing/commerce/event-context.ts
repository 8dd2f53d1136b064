import type Stripe from 'stripe';
import { ConflictError, type Deps } from '../../platform/index.js';
import type { PaymentDeps } from '../payments/payment-deps.js';
import type { EventClaim } from './event-claims.js';

export type WebhookDeps = Pick<Deps, 'data' | 'clock'> & PaymentDeps;

/**
 * What each event's handler is given: the vendor, this delivery's claim on the event, when Stripe created the event
 * (unix s; Stripe does not deliver in order), the vendor's Stripe client, and how the vendor signs license e-mails.
 */
/** `baseUrl`: the service's address as Stripe called it (of the Composer repository and the portal, in license e-mails). */
export type EventContext = { deps: WebhookDeps; tenantId: string; claim: EventClaim; eventCreated: number; stripe: Stripe; seller: Seller; baseUrl: string };

/** The vendor as license e-mails name them, and where buyers' replies go. */
export type Seller = { name?: string; replyTo?: string };

/** What applying an event came to: changes committed (with the processed mark), or nothing to change, and why. */
export type Applied = { kind: 'applied' } | { kind: 'ignored'; reason: string };

export const ignored = (reason: string): Applied => ({ kind: 'ignored', reason });
export const APPLIED: Applied = { kind: 'applied' };

export const EVENT_IN_PROGRESS = 'This event is being processed; retry later';

/** Another delivery of the same event took the claim over (this one outlived its lease): it applies the event. */
export const claimLost = () => new ConflictError(EVENT_IN_PROGRESS);

/** Rounds of "a record changed between our read and our transaction" before giving up (Stripe retries). */
export const APPLY_ROUNDS = 5;
