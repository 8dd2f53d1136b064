import { Entity } from 'electrodb';
import { globalIndex, model, primaryKey } from '../keys.js';

/**
 * One entry of a tenant's audit log (DECISIONS §17), in one of the tenant's chain shards (`tenantId#auditShard`), at
 * `position` (zero-padded, so the shard's entries sort in chain order). `hash` = SHA-256(`prevHash` + the canonical JSON
 * of the entry as the API shows it). The index lists a tenant's entries by time, newest first.
 */
export const auditEntryEntity = () =>
  new Entity({
    model: model('auditEntry'),
    attributes: {
      tenantId: { type: 'string', required: true },
      auditShard: { type: 'string', required: true },
      position: { type: 'string', required: true },
      entryId: { type: 'string', required: true },
      at: { type: 'string', required: true },
      actor: { type: 'any', required: true },
      action: { type: 'string', required: true },
      targetType: { type: 'string', required: true },
      targetId: { type: 'string', required: true },
      changes: { type: 'any', required: true },
      ip: { type: 'string' },
      userAgent: { type: 'string' },
      prevHash: { type: 'string', required: true },
      hash: { type: 'string', required: true },
      /** Epoch seconds: entries are kept 400 days. */
      ttl: { type: 'number', required: true },
    },
    indexes: {
      byChain: primaryKey(['tenantId', 'auditShard'], ['position']),
      byTime: globalIndex(1, ['tenantId'], ['at', 'entryId']),
    },
  });

/**
 * The head of one chain shard: its last entry's position and hash, moved in the transaction that appends the entry,
 * on condition that it is still where the writer read it. In the shard's own partition, beside its entries.
 */
export const auditHeadEntity = () =>
  new Entity({
    model: model('auditHead'),
    attributes: {
      tenantId: { type: 'string', required: true },
      auditShard: { type: 'string', required: true },
      position: { type: 'number', required: true },
      hash: { type: 'string', required: true },
    },
    indexes: { byShard: primaryKey(['tenantId', 'auditShard']) },
  });
