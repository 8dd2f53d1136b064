import { type AuditActor, getUser, withAudit } from '../../shared/identity/index.js';
import { clientAddress, header, type HttpEvent, type HttpResult } from '../../shared/platform/http/index.js';
import type { Deps } from '../../shared/platform/index.js';
import type { Caller } from './authenticate.js';

/** A write route's audit entry: its action (`license.update`) and its target's entity (`license`). */
export type AuditDeclaration = { action: string; target: string; idField?: string };

/**
 * Runs a write route inside its audit scope: the transaction that makes the change writes the entry
 * (shared/platform/data/writes.ts), so there is no entry without its change nor change without its entry. A request that
 * changes nothing (erasing an erased customer, an idempotent replay) writes no transaction of its target, and so no entry.
 */
export async function audited(
  deps: Deps,
  event: HttpEvent,
  caller: Caller,
  declared: AuditDeclaration & { tenantId: string },
  answer: () => Promise<HttpResult>,
) {
  const actor: AuditActor =
    caller.via === 'apiKey'
      ? { type: 'apiKey', id: caller.apiKeyId }
      : { type: 'user', id: caller.userId, ...(await getUser(deps, caller.userId).then((user) => user && { email: user.email })) };
  const intent = {
    tenantId: declared.tenantId,
    actor,
    action: declared.action,
    target: {
      type: declared.target,
      ...(declared.idField && { idField: declared.idField }),
      ...(event.pathParameters?.id && { fallbackId: event.pathParameters.id }),
    },
    ip: clientAddress(event, deps.config),
    userAgent: header(event, 'user-agent')?.slice(0, 512),
    now: () => deps.clock.now(),
  };
  return withAudit(intent, answer);
}
