import type { DataService, TransactionEntities } from '../../platform/data/service.js';
import { entryItem } from './audit-chain.js';
import type { AuditScope } from './audit-scope.js';
import { changesBetween, entityOf, itemAfter, keyOf, type TransactItem } from './item-changes.js';
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
