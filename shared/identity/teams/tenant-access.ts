import type { Deps } from '../../platform/index.js';
import type { Role } from './roles.js';

type AccessDeps = Pick<Deps, 'data'>;

/** The tenant a request acts in, and the caller's role there. */
export type TenantAccess = { tenantId: string; role: Role };

/** A user's role in a tenant: `owner` of their own, their membership's role in another's, undefined when not a member. */
export async function roleIn(deps: AccessDeps, userId: string, tenantId: string): Promise<Role | undefined> {
  if (tenantId === userId) return 'owner';
  // Read strongly consistently on every request, never cached past it: a member removed is out at their next request.
  const { data } = await deps.data.entities.membership.get({ teamId: tenantId, userId }).go({ consistent: true });
  return data?.role as Role | undefined;
}

/**
 * Where a session acts: the tenant it was switched to while the user is still a member there; otherwise (never
 * switched, or removed since) the user's own, as its owner.
 */
export async function sessionTenant(deps: AccessDeps, userId: string, sessionTenantId: string | undefined): Promise<TenantAccess> {
  const role = sessionTenantId ? await roleIn(deps, userId, sessionTenantId) : undefined;
  return role && sessionTenantId ? { tenantId: sessionTenantId, role } : { tenantId: userId, role: 'owner' };
}
