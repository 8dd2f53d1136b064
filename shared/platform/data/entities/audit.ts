import { Entity } from 'electrodb';
import { SERVICE_NAME } from '../table-schema.js';
import { globalIndex, model } from '../keys.js';

/** A tenant's audit log partition, `$licensing#auditLog_<tenantId>`: its entries and its chain's head, apart from the tenant's other items. */
const auditLogKey = <const S extends readonly string[]>(sk: S) =>
  ({
    pk: { field: 'pk', composite: ['tenantId'] as const, casing: 'none', template: `$${SERVICE_NAME}#auditLog_\${tenantId}` },
    sk: { field: 'sk', composite: sk, casing: 'none' },
  }) as const;

/**
 * One entry of a tenant's audit log (DECISIONS §17), created in the transaction of the change it records. The chain
 * fields come after the commit, from the linker (shared/identity/audit/audit-linker.ts): `position` (its place in the tenant's
 * chain, from 1), `prevHash` and `hash` = SHA-256(`prevHash` + the canonical JSON of the entry as stored: a customer's
 * personal data in `changes` sealed, shared/identity/audit/personal-data.ts).
 * The index lists a tenant's entries by time, newest first.
 */
export const auditEntryEntity = () =>
  new Entity({
    model: model('auditEntry'),
    attributes: {
      tenantId: { type: 'string', required: true },
      entryId: { type: 'string', required: true },
      at: { type: 'string', required: true },
      actor: { type: 'any', required: true },
      action: { type: 'string', required: true },
      targetType: { type: 'string', required: true },
      targetId: { type: 'string', required: true },
      changes: { type: 'any', required: true },
      ip: { type: 'string' },
      userAgent: { type: 'string' },
      position: { type: 'number' },
      prevHash: { type: 'string' },
      hash: { type: 'string' },
      /**
       * The `at` of the entry before it in the chain, set with its link (absent on the first, and on entries linked before
       * it existed): tells a predecessor that expired (400 days) from one that was deleted (DECISIONS §20).
       */
      prevAt: { type: 'string' },
      /** Epoch seconds: entries are kept 400 days. */
      ttl: { type: 'number', required: true },
    },
    indexes: {
      byTenant: auditLogKey(['entryId']),
      byTime: globalIndex(1, ['tenantId'], ['at', 'entryId']),
    },
  });

/**
 * The end of a tenant's chain: the last linked entry's `position`, `hash` and `at`. Only the linker moves it, on condition
 * that it is still where the linker read it; no change of the tenant's data writes it.
 */
export const auditHeadEntity = () =>
  new Entity({
    model: model('auditHead'),
    attributes: {
      tenantId: { type: 'string', required: true },
      position: { type: 'number', required: true },
      hash: { type: 'string', required: true },
      /** The last linked entry's `at`, for the next one's `prevAt` (absent on heads moved before it existed). */
      at: { type: 'string' },
    },
    indexes: { byTenant: auditLogKey([]) },
  });

/**
 * The key that seals one customer's personal data in the tenant's audit entries (shared/identity/audit/personal-data.ts).
 * Erasing the customer deletes it: the entries keep their ciphertext, and their hashes, but nothing can open it again.
 */
export const personalDataKeyEntity = () =>
  new Entity({
    model: model('personalDataKey'),
    attributes: {
      tenantId: { type: 'string', required: true },
      customerId: { type: 'string', required: true },
      /** 32 random bytes, base64: an AES-256-GCM key. */
      key: { type: 'string', required: true },
    },
    indexes: { byCustomer: auditLogKey(['customerId']) },
  });
