import { AsyncLocalStorage } from 'node:async_hooks';

/** Who made a change (DECISIONS §17): a signed-in user, an API key, or the service itself (Stripe, imports). */
export type AuditActor = { type: 'user' | 'apiKey' | 'system'; id: string; email?: string };

/** What a change is, as the route (or the Stripe event, the import) that makes it declares it. */
export type AuditIntent = {
  tenantId: string;
  actor: AuditActor;
  action: string;
  /**
   * `type` names the entity whose items are the change (the item's `<type>Id` names the target when `id` is not given);
   * `fallbackId`: the id when no item of the change names it (the path's); `entity: false`: the change has no one item (a Stripe event, an import), its entry rides on the first transaction.
   */
  target: { type: string; id?: string; idField?: string; entity?: false; fallbackId?: string };
  ip?: string;
  userAgent?: string;
  /** The time the entry records. */
  now: () => Date;
};

/** An intent and whether its entry has been written yet: exactly one per request. */
export type AuditScope = AuditIntent & { recorded: boolean };

/**
 * The change a request is making, for `transact` (shared/platform/data/writes.ts) to write its audit entry in the transaction
 * that makes the change. Carried by async context rather than through every domain function's arguments: the domain
 * code stays ignorant of who asked, and no write path can forget to pass it on.
 */
const scopes = new AsyncLocalStorage<AuditScope>();

/** Runs `run` inside the scope of `intent`'s change (shared/identity/audit/audit-transaction.ts `withAudit`). */
export function runInAuditScope<T>(intent: AuditIntent, run: () => Promise<T>): Promise<T> {
  return scopes.run({ ...intent, recorded: false }, run);
}

/** The scope whose entry is still to be written, if any. */
export function pendingAudit(): AuditScope | undefined {
  const scope = scopes.getStore();
  return scope && !scope.recorded ? scope : undefined;
}

/** The change being made belongs to another tenant than the caller's current one (joining a team): its entry is that tenant's. */
export function retargetAudit(tenantId: string): void {
  const scope = pendingAudit();
  if (scope) scope.tenantId = tenantId;
}

/**
 * The request takes back a change it made and recorded (a provider refused it once written): the transaction that
 * takes it back records an entry of its own, so the log never shows a change that was undone as made.
 */
export function auditTakingBack(): void {
  const scope = scopes.getStore();
  if (scope) scope.recorded = false;
}
