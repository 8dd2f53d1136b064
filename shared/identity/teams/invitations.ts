import { getUser, isEmailVerified, normalizeEmail } from '../accounts/users.js';
import { retargetAudit } from '../audit/audit-scope.js';
import { deleteItems, transact } from '../../platform/data/index.js';
import { BadRequestError, ConflictError, type Deps, ForbiddenError, newId, NotFoundError, randomBase32, sha256Hex } from '../../platform/index.js';
import { queuedMailItems } from '../../messaging/index.js';
import { teamName, type Team } from './members.js';
import type { AssignableRole, Role } from './roles.js';

type InvitationDeps = Pick<Deps, 'data' | 'clock'>;

/** DECISIONS §17: an invitation works for 7 days. */
const INVITATION_DAYS = 7;
/** A token as `inviteMember` makes it: 20 random bytes, base32. */
export const INVITATION_TOKEN_SHAPE = /^[a-z2-7]{32}$/;

export const INVALID_INVITATION = 'Invalid or expired invitation';
export const INVITATION_NOT_FOUND = 'Invitation not found';
export const ALREADY_MEMBER = 'This user is already a member of the team';

export type Invitation = { id: string; email: string; role: AssignableRole; expiresAt: string };

type InvitationItem = { invitationId: string; email: string; role: string; expiresAt: string };
const toInvitation = (item: InvitationItem): Invitation => ({
  id: item.invitationId,
  email: item.email,
  role: item.role as AssignableRole,
  expiresAt: item.expiresAt,
});

/**
 * Invites an address to the tenant with a role: the invitation (its token's SHA-256 only) and the e-mail with the link
 * `{dashboardUrl}/accept-invitation?token=…` in one transaction; the e-mail names the inviting user by their address
 * (`invitedBy`, whose address the route has checked is verified). The owner's own address, or a member's, is 409.
 */
export async function inviteMember(
  deps: InvitationDeps,
  tenantId: string,
  invitedBy: string,
  input: { email: string; role: AssignableRole },
  dashboardUrl: string,
): Promise<Invitation> {
  const email = normalizeEmail(input.email);
  const [owner, inviter] = await Promise.all([getUser(deps, tenantId), getUser(deps, invitedBy)]);
  if (!inviter) throw new NotFoundError('User not found');
  const { data: holder } = await deps.data.entities.userEmail.get({ email }).go();
  if (owner?.email === email) throw new ConflictError(ALREADY_MEMBER);
  if (holder) {
    const { data: member } = await deps.data.entities.membership.get({ teamId: tenantId, userId: holder.userId }).go({ consistent: true });
    if (member) throw new ConflictError(ALREADY_MEMBER);
  }
  const token = randomBase32(20);
  const now = deps.clock.now();
  const expires = new Date(now.getTime() + INVITATION_DAYS * 24 * 3600 * 1000);
  const item = {
    tokenHash: sha256Hex(token),
    invitationId: newId('inv'),
    teamId: tenantId,
    email,
    role: input.role,
    invitedBy,
    createdAt: now.toISOString(),
    expiresAt: expires.toISOString(),
    ttl: Math.ceil(expires.getTime() / 1000),
  };
  const link = `${dashboardUrl}/accept-invitation?token=${token}`;
  const outcome = await transact(deps.data, (tx) => ({
    invitation: tx.invitation.create(item).commit(),
    mail: queuedMailItems(
      tx,
      { kind: 'teamInvitation', tenantId, to: email, content: { inviter: inviter.email, team: teamName(owner), role: input.role, link, expiresAt: item.expiresAt } },
      now,
    ),
  }));
  // 160 random bits: a token that is already taken means something is badly wrong, not bad luck.
  if (!outcome.committed) throw outcome.unexpected();
  return toInvitation(item);
}

/** The tenant's open invitations, newest first. */
export async function listInvitations(deps: InvitationDeps, tenantId: string): Promise<Invitation[]> {
  const { data } = await deps.data.entities.invitation.query.byTeam({ teamId: tenantId }).go({ pages: 'all' });
  const now = deps.clock.now().toISOString();
  return data.filter((i) => i.expiresAt > now).map(toInvitation).sort((a, b) => b.expiresAt.localeCompare(a.expiresAt));
}

export async function revokeInvitation(deps: InvitationDeps, tenantId: string, invitationId: string): Promise<void> {
  const { data } = await deps.data.entities.invitation.query.byTeam({ teamId: tenantId, invitationId }).go();
  const invitation = data[0];
  if (!invitation) throw new NotFoundError(INVITATION_NOT_FOUND);
  const outcome = await transact(deps.data, (tx) => ({
    invitation: tx.invitation
      .delete({ tokenHash: invitation.tokenHash })
      .where(({ tokenHash }, { exists }) => exists(tokenHash))
      .commit(),
  }));
  if (!outcome.committed) throw new NotFoundError(INVITATION_NOT_FOUND);
}

/** Withdraws every invitation of the tenant, expired or not: an account taken over keeps no invitation its registrant sent. */
export async function withdrawAllInvitations(deps: InvitationDeps, tenantId: string): Promise<void> {
  const { invitation } = deps.data.entities;
  const { data } = await invitation.query.byTeam({ teamId: tenantId }).go({ pages: 'all', attributes: ['tokenHash'] });
  await deleteItems(
    data.map(({ tokenHash }) => ({ tokenHash })),
    (keys) => invitation.delete(keys).go(),
  );
}

/**
 * Joins the invitation's team: the signed-in user's address must be the invited one, and verified. The invitation is
 * used up and the membership made in one transaction, so a link works once; the audit entry is the team's.
 */
export async function acceptInvitation(deps: InvitationDeps, userId: string, token: string): Promise<Team> {
  if (!INVITATION_TOKEN_SHAPE.test(token)) throw new BadRequestError(INVALID_INVITATION);
  const tokenHash = sha256Hex(token);
  const now = deps.clock.now();
  const { data: invitation } = await deps.data.entities.invitation.get({ tokenHash }).go({ consistent: true });
  if (!invitation || invitation.expiresAt <= now.toISOString()) throw new BadRequestError(INVALID_INVITATION);
  const user = await getUser(deps, userId);
  if (!user) throw new NotFoundError('User not found');
  if (normalizeEmail(user.email) !== invitation.email) throw new ForbiddenError('This invitation is for another e-mail address');
  if (!isEmailVerified(user)) throw new ForbiddenError('Verify your e-mail address to accept this invitation');
  if (invitation.teamId === userId) throw new ConflictError(ALREADY_MEMBER);
  retargetAudit(invitation.teamId);
  const outcome = await transact(deps.data, (tx) => ({
    invitation: tx.invitation
      .delete({ tokenHash })
      .where(({ expiresAt }, { gt }) => gt(expiresAt, now.toISOString()))
      .commit(),
    member: tx.membership.create({ teamId: invitation.teamId, userId, role: invitation.role, joinedAt: now.toISOString() }).commit(),
  }));
  if (!outcome.committed) {
    if (outcome.refused('invitation')) throw new BadRequestError(INVALID_INVITATION);
    throw new ConflictError(ALREADY_MEMBER);
  }
  return { tenantId: invitation.teamId, name: teamName(await getUser(deps, invitation.teamId)), role: invitation.role as Role };
}
