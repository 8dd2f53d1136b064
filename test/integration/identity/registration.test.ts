import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser } from '../../support/browser.js';
import { Client, DASHBOARD_ORIGIN, uniqueEmail } from '../../support/client.js';
import { startFakeOAuthProviders } from '../../support/fake-oauth-providers.js';
import { startManagementGateway, type ManagementGateway } from '../../support/management-gateway.js';
import { localData, tableOfItsOwn } from '../../support/table.js';

/**
 * `registration=invite` (DECISIONS §20) on a deployment of its own: the management function configured so, behind a
 * gateway of its own, on a table of its own, which starts with no account, as a new deployment does. Sign-in with Google
 * and GitHub goes to fakes on this machine.
 */
let fakes: Awaited<ReturnType<typeof startFakeOAuthProviders>>;
let table: string;
/** Invite-only, landing on the dashboard. */
let closed: ManagementGateway;
/** Invite-only, with no dashboard: failures answer JSON. */
let closedNoDashboard: ManagementGateway;
const data = () => localData('all', table);

beforeAll(async () => {
  fakes = await startFakeOAuthProviders();
  table = await tableOfItsOwn();
  closed = await startManagementGateway({ ...fakes.env, TABLE_NAME: table, REGISTRATION: 'invite', DASHBOARD_URL: DASHBOARD_ORIGIN });
  closedNoDashboard = await startManagementGateway({ ...fakes.env, TABLE_NAME: table, REGISTRATION: 'invite' });
});

afterAll(async () => {
  await closed?.close();
  await closedNoDashboard?.close();
  await fakes?.close();
});

const CLOSED = { status: 403, body: { error: 'Registration is closed on this deployment' } };
const password = 'correct horse battery';
const register = (email: string) => new Client(closed.url).post('/api/auth/register', { email, password });
const holderOf = async (email: string) => (await data().entities.userEmail.get({ email }).go({ consistent: true })).data;

/** A whole sign-in with `provider` as `account`, in a new browser: start, consent, callback. */
async function signIn(gateway: ManagementGateway, provider: 'google' | 'github', account: string) {
  const browser = new Browser(gateway.url);
  const started = await browser.get(`/api/oauth/${provider}`);
  expect(started.status, started.text).toBe(302);
  const consent = await browser.get(started.location!, { 'x-fake-account': account });
  return browser.get(consent.location!);
}

// One deployment for the file: its first account is made by the first test, so the tests run in order.
describe('registration=invite (DECISIONS §20)', () => {
  let first: Client & { userId: string };

  it('says so to anyone, for the dashboard to hide its sign-up form; npm start is open', async () => {
    expect(await new Client(closed.url).get('/api/auth/registration')).toMatchObject({ status: 200, body: { registration: 'invite' } });
    expect(await new Client().get('/api/auth/registration')).toMatchObject({ status: 200, body: { registration: 'open' } });
  });

  it("lets the deployment's first account register, then nobody without an invitation", async () => {
    const email = uniqueEmail('first');
    const client = new Client(closed.url);
    const made = await client.post('/api/auth/register', { email, password });
    expect(made.status, made.text).toBe(201);
    first = Object.assign(client, { userId: made.body.user.id as string });

    const stranger = uniqueEmail('stranger');
    expect(await register(stranger)).toMatchObject(CLOSED);
    expect(await holderOf(stranger)).toBeNull();
    // A taken address is refused alike: the closed deployment does not tell which addresses have accounts.
    expect(await register(email.toUpperCase())).toMatchObject(CLOSED);
  });

  it('lets an address with a pending invitation register; a withdrawn or expired one does not', async () => {
    await data().entities.user.patch({ userId: first.userId }).set({ emailVerified: true }).go();
    const invite = async (email: string) => {
      const invited = await first.post('/api/team/invitations', { email, role: 'developer' });
      expect(invited.status, invited.text).toBe(201);
      return invited.body as { id: string };
    };
    const invitee = uniqueEmail('invitee');
    await invite(invitee);
    expect((await register(invitee.toUpperCase())).status).toBe(201);
    expect((await holderOf(invitee))?.userId).toMatch(/^usr_/);

    const withdrawn = uniqueEmail('withdrawn');
    expect((await first.delete(`/api/team/invitations/${(await invite(withdrawn)).id}`)).status).toBe(204);
    expect(await register(withdrawn)).toMatchObject(CLOSED);

    const late = uniqueEmail('late');
    const lateInvitation = await invite(late);
    const { data: items } = await data().entities.invitation.query.byTeam({ teamId: first.userId, invitationId: lateInvitation.id }).go();
    await data().entities.invitation.patch({ tokenHash: items[0]!.tokenHash }).set({ expiresAt: new Date(Date.now() - 1000).toISOString() }).go();
    expect(await register(late)).toMatchObject(CLOSED);
  });

  it('makes an account on a first Google or GitHub sign-in only for an invited address', async () => {
    const stranger = uniqueEmail('oauth-stranger');
    const refused = await signIn(closed, 'google', fakes.google.addAccount({ email: stranger }));
    expect(refused.status).toBe(302);
    expect(Object.fromEntries(new URL(refused.location!).searchParams)).toEqual({ error: 'registration_closed' });
    expect(refused.setCookies.find((line) => line.startsWith('session='))).toBeUndefined();
    const asJson = await signIn(closedNoDashboard, 'github', fakes.github.addAccount({ emails: [{ email: stranger, primary: true, verified: true }] }));
    expect([asJson.status, asJson.body]).toEqual([403, { error: 'Registration is closed on this deployment', code: 'registration_closed' }]);
    expect(await holderOf(stranger)).toBeNull();

    const invitee = uniqueEmail('oauth-invitee');
    expect((await first.post('/api/team/invitations', { email: invitee, role: 'viewer' })).status).toBe(201);
    const welcomed = await signIn(closed, 'github', fakes.github.addAccount({ emails: [{ email: invitee, primary: true, verified: true }] }));
    expect([welcomed.status, welcomed.location]).toEqual([302, DASHBOARD_ORIGIN]);
    expect((await holderOf(invitee))?.userId).toMatch(/^usr_/);
    // An existing account signs in with a provider as ever: no account is made.
    const owner = (await first.get('/api/auth/me')).body.user.email;
    const linked = await signIn(closed, 'google', fakes.google.addAccount({ email: owner }));
    expect([linked.status, linked.location]).toEqual([302, DASHBOARD_ORIGIN]);
  });
});
