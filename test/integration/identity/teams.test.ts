import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Client, DASHBOARD_ORIGIN, newTenant, uniqueEmail } from '../../support/client.js';
import { newLicense, newProduct } from '../../support/licensing-fixtures.js';
import { emailsSent, sentEmails, verifyAddress } from '../../support/mail.js';
import { localData } from '../../support/table.js';
import { invitationToken, joinedMember, verifiedUser } from '../../support/team.js';

const ROLE_REFUSED = 'Your role does not allow this';

describe('teams (DECISIONS §17)', () => {
  it('invites by e-mail, needs the invited address verified to accept, and lets the member switch tenants', async () => {
    const owner = await newTenant();
    const invitee = new Client();
    const email = `invitee-${owner.userId.slice(-8)}@example.com`;
    expect((await invitee.post('/api/auth/register', { email, password: 'correct horse battery', name: 'Ivy' })).status).toBe(201);

    const invited = await owner.post('/api/team/invitations', { email, role: 'support' });
    expect(invited.status, invited.text).toBe(201);
    expect(invited.body).toEqual({ id: expect.stringMatching(/^inv_/), email, role: 'support', expiresAt: expect.any(String) });
    const days = (Date.parse(invited.body.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    expect((await owner.get('/api/team/invitations')).body.items.map((i: { id: string }) => i.id)).toEqual([invited.body.id]);

    const token = await invitationToken(email);
    // DECISIONS §20: the subject names the inviter by their verified address, and carries nothing they typed.
    const [mail] = await sentEmails((sent) => sent.to.includes(email) && sent.subject === `${owner.email} invited you to a team`);
    expect(mail!.text).toContain(`${DASHBOARD_ORIGIN}/accept-invitation?token=${token}`);
    // Not verified yet: refused, and the invitation stays usable.
    expect(await invitee.post(`/api/team/invitations/${token}/accept`)).toMatchObject({ status: 403, body: { error: 'Verify your e-mail address to accept this invitation' } });
    const stranger = await verifiedUser();
    expect(await stranger.post(`/api/team/invitations/${token}/accept`)).toMatchObject({ status: 403, body: { error: 'This invitation is for another e-mail address' } });
    await verifyAddress(email);
    const accepted = await invitee.post(`/api/team/invitations/${token}/accept`);
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body).toEqual({ tenantId: owner.userId, name: 'Dev', role: 'support' });
    expect(await invitee.post(`/api/team/invitations/${token}/accept`)).toMatchObject({ status: 400, body: { error: 'Invalid or expired invitation' } });

    const me = (await invitee.get('/api/auth/me')).body.user;
    expect(me.tenantRole).toBe('owner');
    expect(me.teams).toEqual([
      { tenantId: me.id, name: 'Ivy', role: 'owner' },
      { tenantId: owner.userId, name: 'Dev', role: 'support' },
    ]);
    expect(await invitee.post('/api/auth/switch-tenant', { tenantId: stranger.userId })).toMatchObject({ status: 404 });
    const switched = await invitee.post('/api/auth/switch-tenant', { tenantId: owner.userId });
    expect(switched.body.user).toMatchObject({ tenantId: owner.userId, tenantRole: 'support' });
    expect((await invitee.get('/api/auth/me')).body.user.tenantRole).toBe('support');
    expect((await invitee.post('/api/auth/switch-tenant', { tenantId: me.id })).body.user).toMatchObject({ tenantId: me.id, tenantRole: 'owner' });
    expect((await invitee.post('/api/auth/switch-tenant', { tenantId: owner.userId })).body.user.tenantRole).toBe('support');

    const members = (await owner.get('/api/team/members')).body.items;
    expect(members).toEqual([
      { userId: owner.userId, email: owner.email, name: 'Dev', role: 'owner', joinedAt: expect.any(String) },
      { userId: me.id, email, name: 'Ivy', role: 'support', joinedAt: expect.any(String) },
    ]);
  });

  it("names the inviter in the subject by their verified address only: an account named as a lure puts no word of it there (DECISIONS §20)", async () => {
    const owner = await newTenant();
    const lure = 'Security alert: your account is suspended, verify at https://evil.example';
    expect((await owner.put('/api/auth/me', { name: lure })).status).toBe(200);
    const email = uniqueEmail('target');
    expect((await owner.post('/api/team/invitations', { email, role: 'viewer' })).status).toBe(201);
    const [mail] = await emailsSent((sent) => sent.to.includes(email));
    expect(mail!.subject).toBe(`${owner.email} invited you to a team`);
    // Nor the preview an inbox shows beside the subject (the HTML's hidden preheader), nor its title.
    expect(/<div style="display:none[^"]*">([^<]*)<\/div>/.exec(mail!.html)?.[1]).toBe(`${owner.email} invited you as viewer`);
    expect(/<title>([^<]*)<\/title>/.exec(mail!.html)?.[1]).toBe(`${owner.email} invited you to a team`);
  });

  it('a member acts in the tenant with their role, sees nothing of another tenant, and loses access at once when removed', async () => {
    const owner = await newTenant();
    const other = await newTenant();
    const product = await newProduct(owner);
    const license = await newLicense(owner, product.id);
    const otherLicense = await newLicense(other, (await newProduct(other)).id);
    const support = await joinedMember(owner, 'support', owner.userId);

    // Support: reads, updates licenses; no products, no team.
    expect((await support.get(`/api/licenses/${license.id}`)).status).toBe(200);
    expect((await support.put(`/api/licenses/${license.id}`, { seats: 3 })).body.seats).toBe(3);
    expect(await support.post('/api/products', { name: 'Nope' })).toMatchObject({ status: 403, body: { error: ROLE_REFUSED } });
    expect(await support.post('/api/team/invitations', { email: 'x@example.com', role: 'viewer' })).toMatchObject({ status: 403, body: { error: ROLE_REFUSED } });
    // Isolation: the other tenant's license is unknown to the member (404, never 403).
    expect((await support.get(`/api/licenses/${otherLicense.id}`)).status).toBe(404);
    expect((await support.get('/api/licenses')).body.items.map((l: { id: string }) => l.id)).toEqual([license.id]);

    // Promoted, the next request has the new role.
    expect((await owner.put(`/api/team/members/${support.userId}`, { role: 'developer' })).body.role).toBe('developer');
    expect((await support.post('/api/products', { name: `Allowed ${support.userId.slice(-8)}`, productType: 'plugin' })).status).toBe(201);

    expect((await owner.delete(`/api/team/members/${support.userId}`)).status).toBe(204);
    // The very next request, a write: the session is back in the member's own tenant, where the license is unknown.
    expect((await support.put(`/api/licenses/${license.id}`, { seats: 5 })).status).toBe(404);
    expect((await owner.get(`/api/licenses/${license.id}`)).body.seats).toBe(3);
    expect((await support.get(`/api/licenses/${license.id}`)).status).toBe(404);
    expect((await support.get('/api/licenses')).body.items).toEqual([]);
    expect((await support.get('/api/auth/me')).body.user).toMatchObject({ tenantId: support.userId, tenantRole: 'owner' });
    expect((await support.post('/api/auth/switch-tenant', { tenantId: owner.userId })).status).toBe(404);
  });

  it('refuses an expired or revoked invitation, and nobody joins', async () => {
    const owner = await newTenant();
    const [late, revoked] = await Promise.all([verifiedUser(), verifiedUser()]);
    const invite = async (member: { email: string }) => {
      const invited = await owner.post('/api/team/invitations', { email: member.email, role: 'viewer' });
      expect(invited.status, invited.text).toBe(201);
      return { id: invited.body.id as string, token: await invitationToken(member.email) };
    };
    const [lateInvitation, revokedInvitation] = await Promise.all([invite(late), invite(revoked)]);
    // Aged past its 7 days; DynamoDB's TTL would remove it later still, so acceptance must check expiresAt itself.
    const tokenHash = createHash('sha256').update(lateInvitation.token).digest('hex');
    await localData().entities.invitation.patch({ tokenHash }).set({ expiresAt: new Date(Date.now() - 1000).toISOString() }).go();
    expect((await owner.delete(`/api/team/invitations/${revokedInvitation.id}`)).status).toBe(204);

    for (const [member, { token }] of [[late, lateInvitation], [revoked, revokedInvitation]] as const) {
      expect(await member.post(`/api/team/invitations/${token}/accept`)).toMatchObject({ status: 400, body: { error: 'Invalid or expired invitation' } });
      expect(await member.post('/api/auth/switch-tenant', { tenantId: owner.userId })).toMatchObject({ status: 404 });
    }
    expect((await owner.get('/api/team/members')).body.items.map((m: { userId: string }) => m.userId)).toEqual([owner.userId]);
    expect((await owner.get('/api/team/invitations')).body.items).toEqual([]);
  });

  it('API keys carry a role: admin by default, never above their creator, refused beyond it', async () => {
    const owner = await newTenant();
    const product = await newProduct(owner);
    const license = await newLicense(owner, product.id);
    const made = await owner.post('/api/api-keys', { name: 'default' });
    expect(made.body.role).toBe('admin');
    expect((await owner.post('/api/api-keys', { name: 'owner', role: 'owner' })).status).toBe(400);

    const supportKey = await owner.post('/api/api-keys', { name: 'helpdesk', role: 'support' });
    const key = new Client();
    key.bearer = supportKey.body.key;
    expect((await key.post(`/api/licenses/${license.id}/revoke`)).status).toBe(200);
    expect(await key.post('/api/products', { name: 'Nope' })).toMatchObject({ status: 403, body: { error: ROLE_REFUSED } });
    expect(await key.get('/api/payment-provider')).toMatchObject({ status: 403, body: { error: ROLE_REFUSED } });
    expect((await owner.get('/api/api-keys')).body.items.map((k: { role: string }) => k.role).sort()).toEqual(['admin', 'support']);

    const developer = await joinedMember(owner, 'developer', owner.userId);
    expect((await developer.post('/api/api-keys', { name: 'mine' })).body.role).toBe('developer');
    expect(await developer.post('/api/api-keys', { name: 'admin', role: 'admin' })).toMatchObject({ status: 403, body: { error: ROLE_REFUSED } });
  });

  it("a member's key acts for the member: lowered with their role, refused once they are removed; the owner's keys stay", async () => {
    const owner = await newTenant();
    const license = await newLicense(owner, (await newProduct(owner)).id);
    const ownersKey = new Client();
    ownersKey.bearer = (await owner.post('/api/api-keys', { name: 'server' })).body.key;
    const developer = await joinedMember(owner, 'developer', owner.userId);
    const membersKey = new Client();
    membersKey.bearer = (await developer.post('/api/api-keys', { name: 'ci' })).body.key;
    expect((await membersKey.post('/api/products', { name: `By key ${developer.userId.slice(-8)}`, productType: 'plugin' })).status).toBe(201);
    const portalOverview = () => membersKey.get('/v1/portal/overview?email=nobody%40example.com', { origin: null });
    expect((await portalOverview()).status).toBe(200);

    expect((await owner.put(`/api/team/members/${developer.userId}`, { role: 'viewer' })).status).toBe(200);
    expect(await membersKey.post('/api/products', { name: 'Nope' })).toMatchObject({ status: 403, body: { error: ROLE_REFUSED } });
    expect((await membersKey.get(`/api/licenses/${license.id}`)).status).toBe(200);

    expect((await owner.delete(`/api/team/members/${developer.userId}`)).status).toBe(204);
    expect(await membersKey.get(`/api/licenses/${license.id}`)).toMatchObject({ status: 401, body: { error: 'Invalid API key' } });
    expect(await membersKey.put(`/api/licenses/${license.id}`, { seats: 9 })).toMatchObject({ status: 401 });
    expect(await portalOverview()).toMatchObject({ status: 401, body: { error: 'Invalid API key' } });
    expect((await owner.get(`/api/licenses/${license.id}`)).body.seats).toBe(license.seats);
    expect((await ownersKey.get(`/api/licenses/${license.id}`)).status).toBe(200);
  });
});
