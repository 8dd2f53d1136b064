import { Entity } from 'electrodb';
import { globalIndex, model, primaryKey } from '../keys.js';

/** A developer's secret API key, keyed by its SHA-256 so authentication is one key lookup. */
export const apiKeyEntity = () =>
  new Entity({
    model: model('apiKey'),
    attributes: {
      keyHash: { type: 'string', required: true },
      apiKeyId: { type: 'string', required: true },
      userId: { type: 'string', required: true },
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
