import { getUser, toPublicUser, type PublicUser, type UserItem } from '../accounts/users.js';
import { deleteItems, transact } from '../../platform/data/index.js';
import { BadRequestError, type Deps, NotFoundError } from '../../platform/index.js';
import { ROLE_PERMISSIONS, type AssignableRole, type Permission, type Role } from './roles.js';
import type { TenantAccess } from './tenant-access.js';

type TeamDeps = Pick<Deps, 'data' | 'clock'>;

export type Member = { userId: string; email: string; name: string; role: Role; joinedAt: string };
export type Team = { tenantId: string; name: string; role: Role };

export const MEMBER_NOT_FOUND = 'Member not found';
const OWNER_FIXED = "The owner's role cannot be changed, nor the owner removed";

/** A tenant is called by its owner's name (their e-mail when they gave none). */
export const teamName = (owner: Pick<UserItem, 'name' | 'email'> | undefined) => owner?.name.trim() || owner?.email || 'Unknown team';

/** The owner first, then the members in the order they joined. */
export async function listMembers(deps: TeamDeps, tenantId: string): Promise<Member[]> {
  const [owner, { data: memberships }] = await Promise.all([
    getUser(deps, tenantId),
    deps.data.entities.membership.query.byTeam({ teamId: tenantId }).go({ pages: 'all' }),
  ]);
  const users = await Promise.all(memberships.map((m) => getUser(deps, m.userId)));
  const members = memberships.flatMap((m, i) => {
    const user = users[i];
    return user ? [{ userId: m.userId, email: user.email, name: user.name, role: m.role as Role, joinedAt: m.joinedAt }] : [];
  });
  const first = owner ? [{ userId: tenantId, email: owner.email, name: owner.name, role: 'owner' as const, joinedAt: owner.createdAt }] : [];
  return [...first, ...members.sort((a, b) => a.joinedAt.localeCompare(b.joinedAt))];
}

export async function changeMemberRole(deps: TeamDeps, tenantId: string, userId: string, role: AssignableRole): Promise<Member> {
  if (userId === tenantId) throw new BadRequestError(OWNER_FIXED);
  const outcome = await transact(deps.data, (tx) => ({
    member: tx.membership.patch({ teamId: tenantId, userId }).set({ role }).commit(),
  }));
  if (!outcome.committed) throw new NotFoundError(MEMBER_NOT_FOUND);
  const member = (await listMembers(deps, tenantId)).find((m) => m.userId === userId);
  if (!member) throw new NotFoundError(MEMBER_NOT_FOUND);
  return member;
}

/** The member's next request is already refused: every request reads the membership strongly consistently. */
export async function removeMember(deps: TeamDeps, tenantId: string, userId: string): Promise<void> {
  if (userId === tenantId) throw new BadRequestError(OWNER_FIXED);
  const outcome = await transact(deps.data, (tx) => ({
    member: tx.membership
      .delete({ teamId: tenantId, userId })
      .where(({ userId: member }, { exists }) => exists(member))
      .commit(),
  }));
  if (!outcome.committed) throw new NotFoundError(MEMBER_NOT_FOUND);
}

/** Removes every member of the tenant (its owner has no membership): an account taken over keeps no one its registrant let in. */
export async function removeAllMembers(deps: TeamDeps, tenantId: string): Promise<void> {
  const { membership } = deps.data.entities;
  const { data } = await membership.query.byTeam({ teamId: tenantId }).go({ pages: 'all', attributes: ['teamId', 'userId'] });
  await deleteItems(
    data.map(({ teamId, userId }) => ({ teamId, userId })),
    (keys) => membership.delete(keys).go(),
  );
}

/** Every tenant a user belongs to: their own, then the teams they joined. */
export async function teamsOf(deps: TeamDeps, user: Pick<UserItem, 'userId' | 'name' | 'email'>): Promise<Team[]> {
  const { data: memberships } = await deps.data.entities.membership.query.byUser({ userId: user.userId }).go({ pages: 'all' });
  const owners = await Promise.all(memberships.map((m) => getUser(deps, m.teamId)));
  return [
    { tenantId: user.userId, name: teamName(user), role: 'owner' },
    ...memberships.map((m, i) => ({ tenantId: m.teamId, name: teamName(owners[i]), role: m.role as Role })),
  ];
}

/**
 * A user as `/api/auth/*` shows them: the account, the tenant the session acts in with their role there (and what that
 * role permits, so the dashboard hides what it cannot use), and every team.
 */
export type TeamUser = PublicUser & { tenantId: string; tenantRole: Role; permissions: Permission[]; teams: Team[] };

export async function teamUser(deps: TeamDeps, user: UserItem, access: TenantAccess): Promise<TeamUser> {
  const permissions = [...ROLE_PERMISSIONS[access.role]];
  return { ...toPublicUser(user), tenantId: access.tenantId, tenantRole: access.role, permissions, teams: await teamsOf(deps, user) };
}
