import { Entity } from 'electrodb';
import { model, primaryKey } from '../keys.js';

/**
 * One shard of a per-tenant total (e.g. `license`, `license#status#active`), kept in the same transactions
 * as the writes it counts. A total is the sum of its shards: each write adds to one shard picked at random,
 * so concurrent writes of one tenant (its customers' activations) rarely meet on one item, and the shard in
 * the partition key spreads them over partitions too.
 */
export const counterEntity = () =>
  new Entity({
    model: model('counter'),
    attributes: {
      tenantId: { type: 'string', required: true },
      shard: { type: 'string', required: true },
      name: { type: 'string', required: true },
      count: { type: 'number', required: true, default: 0 },
    },
    indexes: { byName: primaryKey(['tenantId', 'shard'], ['name']) },
  });
