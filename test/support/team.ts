import { expect } from 'vitest';
import { Client, newTenant, uniqueEmail } from './client.js';
import { emailsSent, verifyAddress, type SentEmail } from './mail.js';

type Owner = Awaited<ReturnType<typeof newTenant>>;
export type Member = Client & { email: string; userId: string };

const INVITATION_LINK = /\/accept-invitation\?token=([a-z2-7]{32})/;

/** The token of the newest invitation e-mailed to `email`, waiting for it. */
export async function invitationToken(email: string): Promise<string> {
  const isInvitation = (sent: SentEmail) => sent.to.includes(email) && sent.subject.endsWith(' invited you to a team');
  return INVITATION_LINK.exec((await emailsSent(isInvitation)).at(-1)!.text)![1]!;
}

/** A new user with a verified address, signed in (in their own tenant). */
export async function verifiedUser(email = uniqueEmail('member')): Promise<Member> {
  const client = new Client();
  const res = await client.post('/api/auth/register', { email, password: 'correct horse battery', name: 'Member' });
  expect(res.status, res.text).toBe(201);
  await verifyAddress(email);
  return Object.assign(client, { email, userId: res.body.user.id as string });
}

/** Invites a new verified user into `owner`'s tenant with `role`; they accept and switch to it. */
export async function joinedMember(owner: Owner | Member, role: string, tenantId: string): Promise<Member> {
  const member = await verifiedUser();
  const invited = await owner.post('/api/team/invitations', { email: member.email, role });
  expect(invited.status, invited.text).toBe(201);
  const accepted = await member.post(`/api/team/invitations/${await invitationToken(member.email)}/accept`);
  expect(accepted.status, accepted.text).toBe(200);
  const switched = await member.post('/api/auth/switch-tenant', { tenantId });
  expect(switched.status, switched.text).toBe(200);
  return member;
}
