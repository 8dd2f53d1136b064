import * as z from 'zod/mini';
import { assertDescribes, defineOperations, EX, exampleId, idOf, named, timestamp } from '../../../shared/platform/openapi/index.js';
import { ASSIGNABLE_ROLES, type Invitation as InvitationView, type Member as MemberView, ROLE_REFUSED, ROLES, type Team } from '../../../shared/identity/index.js';
import { RATE_LIMITS } from '../../../shared/platform/rate-limits/index.js';
import { SESSION_REQUIRED } from '../authenticate.js';
import { TeamMembership } from './auth.openapi.js';

const Member = named(
  'Member',
  z.object({ userId: idOf('usr'), email: z.string(), name: z.string(), role: z.enum(ROLES), joinedAt: timestamp }),
  'A user of the tenant and their role: the owner first (`joinedAt`: when the account was made), then the members.',
);
assertDescribes<typeof Member, MemberView>(true);
const Invitation = named(
  'Invitation',
  z.object({ id: idOf('inv'), email: z.string(), role: z.enum(ASSIGNABLE_ROLES), expiresAt: timestamp }),
  'An open invitation: its link works until `expiresAt` (7 days), once.',
);
assertDescribes<typeof Invitation, InvitationView>(true);
assertDescribes<typeof TeamMembership, Team>(true);

const exampleMember = { userId: exampleId('usr', 'm'), email: 'support@example.com', name: 'Sam', role: 'support', joinedAt: EX.updated };
const exampleInvitation = { id: exampleId('inv', 'i'), email: 'support@example.com', role: 'support', expiresAt: EX.updated };
const ownerOnly = "The owner's role cannot be changed, nor the owner removed";

export const teamOperations = defineOperations({
  'GET /api/team/members': {
    summary: 'List the team',
    responses: {
      200: {
        description: 'The owner, then the members',
        body: named('MemberList', z.object({ items: z.array(Member) })),
        examples: { team: { items: [{ userId: EX.userId, email: EX.vendorEmail, name: 'Vendor', role: 'owner', joinedAt: EX.created }, exampleMember] } },
      },
    },
  },
  'PUT /api/team/members/{userId}': {
    summary: "Change a member's role",
    description: 'Owner and admin. Nobody gives a role above their own (403).',
    requestBody: { examples: { promote: { role: 'developer' } } },
    responses: { 200: { description: 'The member', body: Member, examples: { changed: { ...exampleMember, role: 'developer' } } } },
    errors: { 400: [ownerOnly], 403: [ROLE_REFUSED] },
  },
  'DELETE /api/team/members/{userId}': {
    summary: 'Remove a member',
    description: "Their next request is refused already: each request checks the membership. Their sessions act in their own tenant again.",
    responses: { 204: { description: 'Removed' } },
    errors: { 400: [ownerOnly] },
  },
  'GET /api/team/invitations': {
    summary: 'List open invitations',
    responses: {
      200: { description: 'Invitations not yet accepted nor expired', body: named('InvitationList', z.object({ items: z.array(Invitation) })), examples: { open: { items: [exampleInvitation] } } },
    },
  },
  'POST /api/team/invitations': {
    summary: 'Invite someone',
    description:
      'E-mails the address a link `{DASHBOARD_URL}/accept-invitation?token=…`, valid 7 days, once, under the subject ' +
      '`<your e-mail> invited you to a team`. Owner and admin; nobody invites to a role above their own (403). ' +
      "An address that is the owner's or a member's is 409. A signed-in session only, with a verified address (DECISIONS §20); at most 20 " +
      'invitations a day per account and 3 a day to one address.',
    rateLimits: [RATE_LIMITS.invitationTenant, RATE_LIMITS.invitationAddress],
    requestBody: { examples: { invite: { email: 'support@example.com', role: 'support' } } },
    responses: { 201: { description: 'The invitation', body: Invitation, examples: { invited: exampleInvitation } } },
    errors: { 403: [ROLE_REFUSED], 409: ['This user is already a member of the team'] },
  },
  'DELETE /api/team/invitations/{id}': {
    summary: 'Withdraw an invitation',
    description: 'Its link stops working.',
    responses: { 204: { description: 'Withdrawn' } },
  },
  'POST /api/team/invitations/{token}/accept': {
    summary: 'Accept an invitation',
    description:
      "Joins the invitation's team with its role. The signed-in user's address must be the invited one (403) and verified (403). " +
      'A bad, used or expired token is 400. Then `POST /api/auth/switch-tenant` acts there. A signed-in session only.',
    pathParameters: { token: { schema: z.string().check(z.regex(/^[a-z2-7]{32}$/)), description: 'The token of the e-mailed link', example: 'a'.repeat(32) } },
    responses: { 200: { description: 'The team joined', body: TeamMembership, examples: { joined: { tenantId: EX.userId, name: 'Vendor', role: 'support' } } } },
    errors: {
      400: ['Invalid or expired invitation'],
      403: [SESSION_REQUIRED, 'This invitation is for another e-mail address', 'Verify your e-mail address to accept this invitation'],
      404: ['User not found'],
      409: ['This user is already a member of the team'],
    },
  },
});
