import { Entity } from 'electrodb';
import { model, primaryKey } from '../keys.js';

/**
 * A link that confirms a user's e-mail address (`GET /api/auth/verify-email?token=`), keyed by the SHA-256 of its
 * token (the token itself is only in the e-mail). Taken by one conditional delete while `ttl` is ahead: used once.
 * TTL: 24 hours.
 */
export const emailVerificationEntity = () =>
  new Entity({
    model: model('emailVerification'),
    attributes: {
      tokenHash: { type: 'string', required: true },
      userId: { type: 'string', required: true },
      /** The address the link confirms: the user's only while it still is. */
      email: { type: 'string', required: true },
      createdAt: { type: 'string', required: true },
      /** Epoch seconds: past it the link is refused, and DynamoDB's TTL removes the item. */
      ttl: { type: 'number', required: true },
    },
    indexes: { byToken: primaryKey(['tokenHash']) },
  });
