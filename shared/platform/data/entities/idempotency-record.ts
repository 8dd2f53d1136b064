import { Entity } from 'electrodb';
import { model, primaryKey } from '../keys.js';

export const IDEMPOTENCY_STATES = ['inProgress', 'completed'] as const;

/**
 * A request made with an `Idempotency-Key` (shared/platform/http/idempotency.ts), keyed by the hash of the caller's scope
 * and the key, so a key reaches the table only hashed and one caller's key never names another's record. The
 * first request claims it (`inProgress`, with a token of its own and a lease) by one conditional put; its answer is
 * then recorded (`completed`, on the condition that the claim is still its own), and a retry with the same key and
 * the same request gets that answer back instead of acting again. A claim whose lease ran out (an invocation that
 * crashed) may be taken over. TTL: 24 hours after the claim.
 */
export const idempotencyRecordEntity = () =>
  new Entity({
    model: model('idempotencyRecord'),
    attributes: {
      /** SHA-256 (base64url) of the caller's scope and the `Idempotency-Key` as sent. */
      idempotencyKeyHash: { type: 'string', required: true },
      /** SHA-256 (base64url) of the method, path, query and body: the same key with another request is refused (422). */
      requestHash: { type: 'string', required: true },
      state: { type: IDEMPOTENCY_STATES, required: true },
      /** The request holding the claim. */
      claimToken: { type: 'string', required: true },
      /** Epoch milliseconds after which an `inProgress` claim may be taken over. */
      leaseUntil: { type: 'number', required: true },
      /** The first answer once `completed`: `{statusCode, headers, body, isBase64Encoded}` as JSON. */
      response: { type: 'string' },
      createdAt: { type: 'string', required: true },
      /** Epoch seconds: the record and its answer are kept 24 hours. */
      ttl: { type: 'number', required: true },
    },
    indexes: { byKey: primaryKey(['idempotencyKeyHash']) },
  });
