import type { RegistrationMode, Deps } from '../../platform/index.js';
import type { TransactionEntities } from '../../platform/data/index.js';

export const REGISTRATION_CLOSED = 'Registration is closed on this deployment';

/**
 * Why a new account may be made (DECISIONS §20): registration is `open`; or it is `invite` and the address holds a pending
 * invitation (`tokenHash`: that invitation); or it is `invite` and the account may only be the deployment's first.
 */
export type Admission = { kind: 'open' } | { kind: 'invited'; tokenHash: string } | { kind: 'first' };

/** How an account for `email` (normalized) would get in: under `invite`, one query of the invitations by address. */
export async function admissionOf(deps: Pick<Deps, 'data' | 'clock'>, mode: RegistrationMode, email: string): Promise<Admission> {
  if (mode === 'open') return { kind: 'open' };
  const now = deps.clock.now().toISOString();
  const { data: invitations } = await deps.data.entities.invitation.query.byEmail({ email }).go({ pages: 'all' });
  const pending = invitations.find((invitation) => invitation.expiresAt > now);
  return pending ? { kind: 'invited', tokenHash: pending.tokenHash } : { kind: 'first' };
}

/**
 * The items that hold the admission in the transaction that makes the account: the deployment's count of accounts goes
 * up by one, created (only if absent) for an account that may only be the first, and an invitation must still be
 * pending when it commits. Refused: registration is closed to this address.
 */
export function admissionItems(tx: Pick<TransactionEntities, 'deploymentAccounts' | 'invitation'>, admission: Admission, now: Date) {
  if (admission.kind === 'first') return tx.deploymentAccounts.create({ accounts: 1 }).commit();
  const counted = tx.deploymentAccounts.update({}).add({ accounts: 1 }).commit();
  if (admission.kind === 'open') return counted;
  const stillPending = tx.invitation
    .check({ tokenHash: admission.tokenHash })
    .where(({ expiresAt }, { gt }) => gt(expiresAt, now.toISOString()))
    .commit();
  return [counted, stillPending];
}
