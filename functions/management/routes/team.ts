import * as z from 'zod/mini';
import { type Config, type Deps, ForbiddenError, lazily } from '../../../shared/platform/index.js';
import { created, email, noContent, ok, type Route } from '../../../shared/platform/http/index.js';
import { acceptInvitation, ASSIGNABLE_ROLES, changeMemberRole, inviteMember, listInvitations, listMembers, normalizeEmail, removeMember, revokeInvitation, ROLE_REFUSED, roleAtMost } from '../../../shared/identity/index.js';
import { ID_KINDS } from '../id-kinds.js';
import type { RouteBuilders } from '../route.js';
import { RATE_LIMITS, type RateLimiter } from '../../../shared/platform/rate-limits/index.js';

/** The routes' schemas, built with the first request that reads one (functions/management/route.ts: `SchemaSource`). */
const schemas = lazily(() => {
  const role = z.enum(ASSIGNABLE_ROLES);
  return { inviteBody: z.strictObject({ email, role }), roleBody: z.strictObject({ role }) };
});
const byMember = { pathIds: { userId: ID_KINDS.member } };

/**
 * DECISIONS §17: the tenant's members and invitations. Nobody hands out a role above their own. Changing the team takes a
 * signed-in session, and inviting a verified address besides, with a daily limit per tenant and per invited address (§20).
 */
export function teamRoutes(deps: Deps<Config<'links' | 'dashboard'>>, limits: RateLimiter, { authed }: RouteBuilders): Route[] {
  const assignable = (callerRole: Parameters<typeof roleAtMost>[1], wanted: Parameters<typeof roleAtMost>[0]) => {
    if (!roleAtMost(wanted, callerRole)) throw new ForbiddenError(ROLE_REFUSED);
  };
  return [
    authed('GET', '/api/team/members', { permission: 'read' }, async ({ caller }) => ok({ items: await listMembers(deps, caller.tenantId) })),
    authed(
      'PUT',
      '/api/team/members/{userId}',
      { ...byMember, body: () => schemas().roleBody, sessionOnly: true, permission: 'team', audit: { action: 'member.update', target: 'membership', idField: 'userId' } },
      async ({ caller, params, body }) => {
        assignable(caller.role, body.role);
        return ok(await changeMemberRole(deps, caller.tenantId, params.userId!, body.role));
      },
    ),
    authed(
      'DELETE',
      '/api/team/members/{userId}',
      { ...byMember, sessionOnly: true, permission: 'team', audit: { action: 'member.remove', target: 'membership', idField: 'userId' } },
      async ({ caller, params }) => {
        await removeMember(deps, caller.tenantId, params.userId!);
        return noContent();
      },
    ),
    authed('GET', '/api/team/invitations', { permission: 'read' }, async ({ caller }) => ok({ items: await listInvitations(deps, caller.tenantId) })),
    authed(
      'POST',
      '/api/team/invitations',
      { body: () => schemas().inviteBody, sessionOnly: true, verifiedOnly: true, permission: 'team', audit: { action: 'invitation.create', target: 'invitation' } },
      async ({ caller, body, baseUrl }) => {
        assignable(caller.role, body.role);
        // The tenant's bucket first: a tenant over its limit spends nothing of the address's, whose room is the invitee's.
        await limits.take(RATE_LIMITS.invitationTenant, caller.tenantId);
        await limits.take(RATE_LIMITS.invitationAddress, normalizeEmail(body.email));
        return created(await inviteMember(deps, caller.tenantId, caller.userId, body, deps.config.dashboardUrl ?? baseUrl));
      },
    ),
    authed(
      'DELETE',
      '/api/team/invitations/{id}',
      { pathIds: { id: ID_KINDS.invitation }, sessionOnly: true, permission: 'team', audit: { action: 'invitation.delete', target: 'invitation' } },
      async ({ caller, params }) => {
        await revokeInvitation(deps, caller.tenantId, params.id!);
        return noContent();
      },
    ),
    // The invited person's own step: any signed-in user whose verified address was invited (an API key acts for a tenant, not a person).
    authed(
      'POST',
      '/api/team/invitations/{token}/accept',
      { pathIds: { token: ID_KINDS.invitationToken }, sessionOnly: true, permission: 'account', audit: { action: 'invitation.accept', target: 'membership', idField: 'userId' } },
      async ({ caller, params }) => ok(await acceptInvitation(deps, caller.userId, params.token!)),
    ),
  ];
}
