import { type DataService, entityOf, provideTransactionCompanion, type TransactionCompanion, type TransactionEntities, type TransactItem } from '../../platform/data/index.js';
import { entryItem } from './audit-chain.js';
import { pendingAudit, runInAuditScope, type AuditIntent, type AuditScope } from './audit-scope.js';
import { changesBetween, itemAfter, keyOf } from './item-changes.js';
import { sealPersonalData } from './personal-data.js';

/**
 * What a transaction adds to carry its request's audit entry: the entry, built for the final transaction. Undefined
 * when this transaction does not make the declared change (it touches no item of the target's entity: a customer made
 * before the license that names it), which a later one of the request then does.
 */
export async function auditAddition(
  data: DataService,
  scope: AuditScope,
  items: TransactItem[],
  now: Date,
): Promise<((tx: TransactionEntities) => unknown[]) | undefined> {
  const { target } = scope;
  const subject = target.entity === false ? undefined : items.find((item) => !item.ConditionCheck && entityOf(item) === target.type);
  if (!subject && target.entity !== false) return undefined;
  const key = subject && keyOf(subject);
  const before = subject && !subject.Put && key ? await data.storedItem(key) : undefined;
  const after = subject && itemAfter(subject, before);
  const idField = target.idField ?? `${target.type}Id`;
  const id = target.id ?? String(after?.[idField] ?? before?.[idField] ?? target.fallbackId ?? scope.tenantId);
  const changes = subject ? await sealPersonalData(data, scope.tenantId, target.type, { before, after }, changesBetween(before, after)) : {};
  return (tx) => [entryItem(tx, scope, { type: target.type, id }, changes, now)];
}

/** The request's pending entry as the data layer's transaction companion: written by the first transaction that makes the change. */
function pendingEntry(): TransactionCompanion | undefined {
  const scope = pendingAudit();
  return (
    scope && {
      addition: (data, items) => auditAddition(data, scope, items, scope.now()),
      committed: () => {
        scope.recorded = true;
      },
    }
  );
}

/**
 * Runs a request that changes something: the first transaction that makes its declared change (shared/platform/data/
 * writes.ts) also carries its audit entry.
 */
export function withAudit<T>(intent: AuditIntent, run: () => Promise<T>): Promise<T> {
  provideTransactionCompanion(pendingEntry);
  return runInAuditScope(intent, run);
}
