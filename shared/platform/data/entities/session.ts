import { Entity } from 'electrodb';
import { globalIndex, model, primaryKey } from '../keys.js';

/** A login session, keyed by the SHA-256 of its token; the token itself is never stored. */
export const sessionEntity = () =>
  new Entity({
    model: model('session'),
    attributes: {
      tokenHash: { type: 'string', required: true },
      userId: { type: 'string', required: true },
      /** The tenant the session acts in (DECISIONS §17); absent: the user's own. */
      tenantId: { type: 'string' },
      createdAt: { type: 'string', required: true },
      expiresAt: { type: 'string', required: true },
      /** Epoch seconds: DynamoDB's TTL removes expired sessions. */
      ttl: { type: 'number', required: true },
    },
    indexes: {
      byToken: primaryKey(['tokenHash']),
      byUser: globalIndex(1, ['userId'], ['tokenHash']),
    },
  });
