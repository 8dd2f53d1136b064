import { Entity } from 'electrodb';
import { globalIndex, model, primaryKey } from '../keys.js';

/** A developer's secret API key, keyed by its SHA-256 so authentication is one key lookup. */
export const apiKeyEntity = () =>
  new Entity({
    model: model('apiKey'),
    attributes: {
      keyHash: { type: 'string', required: true },
      apiKeyId: { type: 'string', required: true },
      /** The tenant the key acts in (its owner's user id). */
      userId: { type: 'string', required: true },
      /** Its role in that tenant (DECISIONS §17); absent (keys made before roles): `admin`. */
      role: { type: 'string' },
      /** The user who made it. */
      createdBy: { type: 'string' },
      name: { type: 'string', required: true },
      prefix: { type: 'string', required: true },
      createdAt: { type: 'string', required: true },
      lastUsedAt: { type: 'string' },
    },
    indexes: {
      byHash: primaryKey(['keyHash']),
      byUser: globalIndex(1, ['userId'], ['apiKeyId']),
    },
  });
