import { Entity } from 'electrodb';
import { model, primaryKey } from '../keys.js';

/**
 * Exists while a license is `active` with an `expiresAt`, written in the same transaction that sets
 * that state. The expiry sweep queries each shard for `expiresAt <= now`, so it reads only due
 * licenses and never scans. Shards (a hash of the license id) spread the writes; keyed by expiry
 * time rather than day, a past date or a missed run needs no look-back window.
 */
export const licenseExpiryEntity = () =>
  new Entity({
    model: model('licenseExpiry'),
    attributes: {
      shard: { type: 'string', required: true },
      expiresAt: { type: 'string', required: true },
      licenseId: { type: 'string', required: true },
      tenantId: { type: 'string', required: true },
      productId: { type: 'string', required: true },
    },
    indexes: { byDue: primaryKey(['shard'], ['expiresAt', 'licenseId']) },
  });
