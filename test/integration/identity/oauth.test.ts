import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { sha256Hex } from '../../../shared/platform/ids.js';
import { Browser, type BrowserResponse } from '../../support/browser.js';
import { Client, DASHBOARD_ORIGIN, newTenant, unverifiedTenant, uniqueEmail } from '../../support/client.js';
import { startFakeOAuthProviders, type Failure } from '../../support/fake-oauth-providers.js';
import { startFakeSecretsManager } from '../../support/fake-secrets-manager.js';
import { startManagementGateway, type ManagementGateway } from '../../support/management-gateway.js';
import { stripeTestKey } from '../../support/fake-stripe.js';
import { verifyAddress } from '../../support/mail.js';
import { joinedMember } from '../../support/team.js';
import { localData } from '../../support/table.js';

/**
 * Sign-in with Google and GitHub over HTTP: a fake Google and a fake GitHub on this machine, and the management
 * function configured for them (DECISIONS §11 addresses) behind a gateway of its own, on the shared stack's table.
 * The browser is played by hand: the service's redirect to the provider, the provider's consent page, its redirect
 * back to the callback. Sessions it sets are then used on the shared stack, as any other session.
 */
type Provider = 'google' | 'github';

let fakes: Awaited<ReturnType<typeof startFakeOAuthProviders>>;
/** Configured for both providers, landing on the dashboard. */
let service: ManagementGateway;
/** Configured for both providers, without DASHBOARD_URL. */
let noDashboard: ManagementGateway;
const data = () => localData();

beforeAll(async () => {
  fakes = await startFakeOAuthProviders();
  service = await startManagementGateway({ ...fakes.env, DASHBOARD_URL: DASHBOARD_ORIGIN });
  noDashboard = await startManagementGateway(fakes.env);
});

afterAll(async () => {
  await service?.close();
  await noDashboard?.close();
  await fakes?.close();
});

/** Starts a sign-in in `browser`; answers the start route's answer and the `state` it sent to the provider. */
async function start(browser: Browser, provider: Provider) {
  const res = await browser.get(`/api/oauth/${provider}`);
  expect(res.status, res.text).toBe(302);
  return { res, state: new URL(res.location!).searchParams.get('state')!, authorizeUrl: res.location! };
}

/** The provider's consent page: as `account`, or refused. Answers the callback URL the provider sends the browser to. */
async function consent(browser: Browser, authorizeUrl: string, who: { account: string } | 'deny'): Promise<string> {
  const res = await browser.get(authorizeUrl, who === 'deny' ? { 'x-fake-consent': 'deny' } : { 'x-fake-account': who.account });
  expect(res.status, res.text).toBe(302);
  return res.location!;
}

/** A whole sign-in in a new browser (or the one given): start, consent, callback. */
async function signIn(provider: Provider, account: string, browser = new Browser(service.url)) {
  const { authorizeUrl } = await start(browser, provider);
  const callback = await browser.get(await consent(browser, authorizeUrl, { account }));
  return { browser, callback };
}

const sessionOf = (res: BrowserResponse) => res.setCookies.find((line) => line.startsWith('session='));

/** A signed-in answer: to the dashboard, with the session cookie of DECISIONS §3 and the state cookie cleared. */
function expectSignedIn(res: BrowserResponse) {
  expect(res.status, res.text).toBe(302);
  expect(res.location).toBe(DASHBOARD_ORIGIN);
  const [pair, ...flags] = sessionOf(res)!.split(';').map((part) => part.trim());
  expect(pair).toMatch(/^session=[a-z2-7]{32}$/);
  expect(flags).toEqual(expect.arrayContaining(['HttpOnly', 'Path=/', 'SameSite=Lax', 'Max-Age=2592000']));
  expect(flags).not.toContain('Secure');
  expect(res.setCookies.find((line) => line.startsWith('oauth_state='))).toMatch(/^oauth_state=;.*Max-Age=0/);
}

/** A refused sign-in: to the dashboard with `?error=<code>`, no session, the state cookie cleared. */
function expectRefused(res: BrowserResponse, code: string) {
  expect(res.status, res.text).toBe(302);
  const location = new URL(res.location!);
  expect(location.origin).toBe(DASHBOARD_ORIGIN);
  expect(Object.fromEntries(location.searchParams)).toEqual({ error: code });
  expect(sessionOf(res)).toBeUndefined();
  expect(res.setCookies.find((line) => line.startsWith('oauth_state='))).toMatch(/^oauth_state=;.*Max-Age=0/);
}

/** A client of the shared stack holding the session a sign-in set. */
function sessionClient(browser: Browser): Client {
  const client = new Client();
  client.cookie = browser.cookie('session');
  expect(client.cookie).toMatch(/^[a-z2-7]{32}$/);
  return client;
}

async function me(browser: Browser) {
  const res = await sessionClient(browser).get('/api/auth/me');
  expect(res.status, res.text).toBe(200);
  return res.body.user;
}

async function userIdOfEmail(email: string): Promise<string | undefined> {
  const { data: owner } = await data().entities.userEmail.get({ email }).go({ consistent: true });
  return owner?.userId;
}

async function identity(provider: Provider, subject: string) {
  const { data: item } = await data().entities.userIdentity.get({ provider, subject }).go({ consistent: true });
  return item;
}

/** Nothing of an account was written for this provider account and e-mail. */
async function expectNoAccount(provider: Provider, subject: string, email: string) {
  expect(await identity(provider, subject)).toBeNull();
  expect(await userIdOfEmail(email)).toBeUndefined();
}

describe('starting a sign-in', () => {
  it('sends the browser to Google with state and PKCE, both kept server-side (hashed, 10 minutes) and bound by an HttpOnly cookie', async () => {
    const browser = new Browser(service.url);
    const before = Math.floor(Date.now() / 1000);
    const { res, state, authorizeUrl } = await start(browser, 'google');
    const url = new URL(authorizeUrl);
    expect(url.origin + url.pathname).toBe(fakes.google.env.GOOGLE_AUTH_URL);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: fakes.google.clientId,
      redirect_uri: `${service.url}/api/oauth/google/callback`,
      response_type: 'code',
      scope: 'openid email profile',
      state: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge_method: 'S256',
    });
    expect(res.text).toBe('');
    const [pair, ...flags] = res.setCookies.find((line) => line.startsWith('oauth_state='))!.split(';').map((part) => part.trim());
    expect(flags).toEqual(expect.arrayContaining(['HttpOnly', 'Path=/api/oauth', 'SameSite=Lax', 'Max-Age=600']));
    expect(res.setCookies.some((line) => line.startsWith('session='))).toBe(false);
    const browserKey = pair!.slice('oauth_state='.length);

    const { data: item } = await data().entities.oauthState.get({ stateHash: sha256Hex(state) }).go({ consistent: true });
    expect(item).toMatchObject({ provider: 'google', browserHash: sha256Hex(browserKey), codeVerifier: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    expect(item!.ttl).toBeGreaterThanOrEqual(before + 600);
    expect(item!.ttl).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 600);
    expect(JSON.stringify(item)).not.toContain(state);
    expect(JSON.stringify(item)).not.toContain(browserKey);
  });

  it('sends the browser to GitHub with a state and the e-mail scope, and no PKCE', async () => {
    const { state, authorizeUrl } = await start(new Browser(service.url), 'github');
    const url = new URL(authorizeUrl);
    expect(url.origin + url.pathname).toBe(fakes.github.env.GITHUB_AUTH_URL);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: fakes.github.clientId,
      redirect_uri: `${service.url}/api/oauth/github/callback`,
      scope: 'read:user user:email',
      state,
    });
    const { data: item } = await data().entities.oauthState.get({ stateHash: sha256Hex(state) }).go({ consistent: true });
    expect(item).toMatchObject({ provider: 'github' });
    expect(item!.codeVerifier).toBeUndefined();
  });

  it('answers 404 for a provider without client id and secret, and for an unknown provider', async () => {
    // The shared stack has no OAuth client configured.
    const client = new Client();
    for (const provider of ['google', 'github']) {
      for (const path of [`/api/oauth/${provider}`, `/api/oauth/${provider}/callback?code=x&state=y`]) {
        expect(await client.get(path)).toMatchObject({ status: 404, body: { error: `${provider} login is not configured` } });
      }
    }
    for (const path of ['/api/oauth/facebook', '/api/oauth/facebook/callback', '/api/oauth/Google']) {
      expect(await new Client(service.url).get(path)).toMatchObject({ status: 404, body: { error: 'Not found' } });
    }
  });

  it('lists the configured providers, so that the sign-in page offers only buttons that work', async () => {
    expect(await new Client().get('/api/oauth/providers')).toMatchObject({ status: 200, body: { providers: [] } });
    expect((await new Client(service.url).get('/api/oauth/providers')).body).toEqual({ providers: ['google', 'github'] });
    const githubOnly = await startManagementGateway(Object.fromEntries(Object.entries(fakes.env).filter(([name]) => !name.startsWith('GOOGLE_CLIENT'))));
    try {
      expect((await new Client(githubOnly.url).get('/api/oauth/providers')).body).toEqual({ providers: ['github'] });
      expect((await new Client(githubOnly.url).get('/api/oauth/google')).status).toBe(404);
    } finally {
      await githubOnly.close();
    }
  });
});

describe('signing in', () => {
  it('creates a new user from Google, without a password, and lands on the dashboard with a session', async () => {
    const email = uniqueEmail('google');
    const account = fakes.google.addAccount({ email: email.toUpperCase(), name: '  Ada Lovelace ', picture: 'https://lh3.googleusercontent.test/a/ada' });
    const { browser, callback } = await signIn('google', account);
    expectSignedIn(callback);
    const user = await me(browser);
    expect(user).toEqual({
      id: expect.stringMatching(/^usr_[a-z2-7]{24}$/),
      email,
      name: 'Ada Lovelace',
      role: 'developer',
      avatarUrl: 'https://lh3.googleusercontent.test/a/ada',
      createdAt: expect.any(String),
      providers: ['google'],
      hasPassword: false,
      // Google vouched for the address.
      emailVerified: true,
      // A new account: the owner of its own tenant, in no one else's (DECISIONS §17).
      tenantId: expect.stringMatching(/^usr_/),
      tenantRole: 'owner',
      teams: [{ tenantId: expect.stringMatching(/^usr_/), name: 'Ada Lovelace', role: 'owner' }],
      permissions: expect.arrayContaining(['account', 'read', 'team', 'auditLog']),
    });
    expect(await identity('google', fakes.google.account(account).sub)).toMatchObject({ userId: user.id, email });
    // No password: a login with any password is refused as a wrong one.
    expect((await new Client().post('/api/auth/login', { email, password: 'anything at all' })).status).toBe(401);
  });

  it('creates a new user from GitHub with its primary verified address, its name or else its login', async () => {
    const email = uniqueEmail('octo');
    const account = fakes.github.addAccount({
      emails: [
        { email: uniqueEmail('secondary'), primary: false, verified: true },
        { email, primary: true, verified: true },
      ],
    });
    const { browser, callback } = await signIn('github', account);
    expectSignedIn(callback);
    const { id, login } = fakes.github.account(account);
    expect(await me(browser)).toMatchObject({ email, name: login, avatarUrl: `https://avatars.githubusercontent.test/u/${id}`, providers: ['github'], hasPassword: false });
  });

  it('signs a returning user in as the same user, even once the provider gives another e-mail', async () => {
    const email = uniqueEmail('again');
    const account = fakes.google.addAccount({ email });
    const first = await signIn('google', account);
    expectSignedIn(first.callback);
    const userId = (await me(first.browser)).id;

    const second = await signIn('google', account);
    expectSignedIn(second.callback);
    expect(second.browser.cookie('session')).not.toBe(first.browser.cookie('session'));
    expect((await me(second.browser)).id).toBe(userId);

    // The account is the link, not the address: a changed (even unverified) e-mail still reaches the same user.
    Object.assign(fakes.google.account(account), { email: uniqueEmail('changed'), email_verified: false });
    const third = await signIn('google', account);
    expectSignedIn(third.callback);
    expect(await me(third.browser)).toMatchObject({ id: userId, email, providers: ['google'] });
  });

  it('links a provider to the existing user with that verified e-mail, who keeps their password, sessions and keys', async () => {
    const tenant = await newTenant();
    await verifyAddress(tenant.email);
    const key = (await tenant.post('/api/api-keys', { name: 'server' })).body.key;
    const github = fakes.github.addAccount({ emails: [{ email: tenant.email.toUpperCase(), primary: true, verified: true }] });
    const viaGitHub = await signIn('github', github);
    expectSignedIn(viaGitHub.callback);
    expect(await me(viaGitHub.browser)).toMatchObject({ id: tenant.userId, email: tenant.email, name: 'Dev', providers: ['github'], hasPassword: true });

    const google = fakes.google.addAccount({ email: tenant.email });
    const viaGoogle = await signIn('google', google);
    expectSignedIn(viaGoogle.callback);
    expect(await me(viaGoogle.browser)).toMatchObject({ id: tenant.userId, providers: ['github', 'google'] });
    expect((await tenant.get('/api/auth/me')).body.user.providers).toEqual(['github', 'google']);
    expect((await new Client().post('/api/auth/login', { email: tenant.email, password: tenant.password })).status).toBe(200);
    expect((await Object.assign(new Client(), { bearer: key }).get('/api/products')).status).toBe(200);
  });

  it('takes over an account whose address was never verified: its password, sessions and keys end before the link', async () => {
    // Someone registers the owner's address with a password of theirs, signs in, and makes an API key.
    const squatter = await unverifiedTenant();
    const key = (await squatter.post('/api/api-keys', { name: 'backdoor' })).body.key;
    const otherSession = new Client();
    expect((await otherSession.post('/api/auth/login', { email: squatter.email, password: squatter.password })).status).toBe(200);
    const product = (await squatter.post('/api/products', { name: 'Squatted', productType: 'plugin' })).body;

    // The address's owner signs in with Google, which vouches for it.
    const google = fakes.google.addAccount({ email: squatter.email });
    const owner = await signIn('google', google);
    expectSignedIn(owner.callback);
    expect(await me(owner.browser)).toMatchObject({ id: squatter.userId, providers: ['google'], hasPassword: false, emailVerified: true });

    // Nothing of the registrant's works any more: the password (401 as any wrong one), both sessions, the key.
    expect(await new Client().post('/api/auth/login', { email: squatter.email, password: squatter.password })).toMatchObject({
      status: 401,
      body: { error: 'Invalid email or password' },
    });
    expect((await squatter.get('/api/auth/me')).status).toBe(401);
    expect((await otherSession.get('/api/auth/me')).status).toBe(401);
    expect((await Object.assign(new Client(), { bearer: key }).get('/api/products')).status).toBe(401);
    // The owner has the account, and sets a password of their own.
    const client = sessionClient(owner.browser);
    expect((await client.get('/api/api-keys')).body.items).toEqual([]);
    expect((await client.get(`/api/products/${product.id}`)).status).toBe(200);
    expect((await client.post('/api/auth/change-password', { newPassword: 'the owner\'s own' })).status).toBe(200);
    expect((await new Client().post('/api/auth/login', { email: squatter.email, password: 'the owner\'s own' })).status).toBe(200);
  });

  it('takes over the tenant too: the registrant\'s members, invitations, webhooks and payment provider go (DECISIONS §20)', async () => {
    // A registrant who set all of it up when an unverified address could (before DECISIONS §20): made with its address
    // verified, then put back as the registrant had it, never verified.
    const squatter = await newTenant();
    const accomplice = await joinedMember(squatter, 'admin', squatter.userId);
    expect((await squatter.post('/api/team/invitations', { email: uniqueEmail('pending'), role: 'admin' })).status).toBe(201);
    const hook = await squatter.post('/api/webhooks', { name: 'Exfiltrate', url: 'http://127.0.0.1:9/hook', events: ['license.created'] });
    expect(hook.status, hook.text).toBe(201);
    const connected = await squatter.put('/api/payment-provider', { provider: 'stripe', secretKey: stripeTestKey(), webhookSecret: 'whsec_dGVzdHNlY3JldHRlc3RzZWNyZXQ=' });
    expect(connected.status, connected.text).toBe(200);
    await data().entities.user.patch({ userId: squatter.userId }).set({ emailVerified: false }).go();
    const product = (await squatter.post('/api/products', { name: 'Squatted', productType: 'plugin' })).body;

    const owner = await signIn('google', fakes.google.addAccount({ email: squatter.email }));
    expectSignedIn(owner.callback);
    const client = sessionClient(owner.browser);
    expect((await client.get('/api/team/members')).body.items.map((m: { userId: string }) => m.userId)).toEqual([squatter.userId]);
    expect((await client.get('/api/team/invitations')).body.items).toEqual([]);
    // No URL of the registrant's receives the owner's licenses and buyers, no Stripe account of theirs takes the sales.
    expect((await client.get('/api/webhooks')).body.items).toEqual([]);
    expect((await client.get('/api/payment-provider')).body).toMatchObject({ connected: false, provider: null });

    // The accomplice is back in their own tenant: nothing of the owner's to mint keys for, no way back in.
    expect((await accomplice.get('/api/auth/me')).body.user).toMatchObject({ tenantId: accomplice.userId, tenantRole: 'owner' });
    expect((await accomplice.post('/api/auth/switch-tenant', { tenantId: squatter.userId })).status).toBe(404);
    expect((await accomplice.get(`/api/products/${product.id}`)).status).toBe(404);
  });

  it('never links an unverified e-mail to the account that holds it', async () => {
    const tenant = await newTenant();
    const google = fakes.google.addAccount({ email: tenant.email, email_verified: false });
    const viaGoogle = await signIn('google', google);
    expectRefused(viaGoogle.callback, 'email_not_verified');
    // GitHub: a verified address that is not the primary one does not count, nor an unverified primary.
    const github = fakes.github.addAccount({
      emails: [
        { email: uniqueEmail('primary'), primary: true, verified: false },
        { email: tenant.email, primary: false, verified: true },
      ],
    });
    const viaGitHub = await signIn('github', github);
    expectRefused(viaGitHub.callback, 'email_not_verified');

    expect(await identity('google', fakes.google.account(google).sub)).toBeNull();
    expect(await identity('github', String(fakes.github.account(github).id))).toBeNull();
    expect((await tenant.get('/api/auth/me')).body.user).toMatchObject({ id: tenant.userId, providers: [], hasPassword: true });
  });

  it('creates no user for an unverified e-mail either', async () => {
    const email = uniqueEmail('unverified');
    const account = fakes.google.addAccount({ email, email_verified: false });
    expectRefused((await signIn('google', account)).callback, 'email_not_verified');
    await expectNoAccount('google', fakes.google.account(account).sub, email);
    // The address stays free for its owner.
    expect((await new Client().post('/api/auth/register', { email, password: 'abcdefgh' })).status).toBe(201);
  });

  it('gives a session that works on the /api routes and ends on logout', async () => {
    const account = fakes.github.addAccount({ emails: [{ email: uniqueEmail('session'), primary: true, verified: true }] });
    const { browser, callback } = await signIn('github', account);
    expectSignedIn(callback);
    // On the shared stack, as any session: reads, writes (with the dashboard's origin), API keys.
    const client = sessionClient(browser);
    const product = await client.post('/api/products', { name: 'OAuth Plugin', productType: 'plugin' });
    expect(product.status, product.text).toBe(201);
    expect((await client.get('/api/products')).body.items.map((item: { id: string }) => item.id)).toEqual([product.body.id]);
    expect((await client.post('/api/api-keys', { name: 'CI' })).status).toBe(201);
    expect((await client.put('/api/auth/me', { name: 'Octo' })).body.user).toMatchObject({ name: 'Octo', providers: ['github'] });
    // The CSRF rule holds for it too.
    expect((await client.post('/api/products', { name: 'X', productType: 'plugin' }, { origin: 'https://evil.example' })).status).toBe(403);

    const token = client.cookie;
    expect((await client.post('/api/auth/logout')).status).toBe(204);
    const replay = new Client();
    replay.cookie = token;
    expect((await replay.get('/api/auth/me')).status).toBe(401);
    expect((await replay.get('/api/products')).status).toBe(401);
  });

  it('lets a user created by OAuth set a first password without the current one, once', async () => {
    const email = uniqueEmail('first-password');
    const { browser, callback } = await signIn('google', fakes.google.addAccount({ email }));
    expectSignedIn(callback);
    const client = sessionClient(browser);
    // Never through an API key: a leaked key cannot give the account a password of its holder's.
    const key = (await client.post('/api/api-keys', { name: 'server' })).body.key;
    expect((await Object.assign(new Client(), { bearer: key }).post('/api/auth/change-password', { newPassword: 'the holder\'s' }, { origin: null })).status).toBe(403);
    // Two first passwords at once: exactly one is set.
    const passwords = ['first password 1', 'first password 2'];
    const raced = await Promise.all(passwords.map((newPassword) => client.post('/api/auth/change-password', { newPassword })));
    expect(raced.filter((res) => res.status === 200)).toHaveLength(1);
    const won = passwords[raced.findIndex((res) => res.status === 200)]!;
    const lost = raced.find((res) => res.status !== 200)!;
    expect([400, 409], lost.text).toContain(lost.status);
    expect((await client.get('/api/auth/me')).body.user.hasPassword).toBe(true);

    expect(await client.post('/api/auth/change-password', { newPassword: 'another password' })).toMatchObject({
      status: 400,
      body: { error: 'currentPassword is required' },
    });
    expect((await client.post('/api/auth/change-password', { currentPassword: 'wrong', newPassword: 'another password' })).status).toBe(400);
    expect((await new Client().post('/api/auth/login', { email, password: won })).status).toBe(200);
    expect((await client.post('/api/auth/change-password', { currentPassword: won, newPassword: 'another password' })).status).toBe(200);
    expect((await new Client().post('/api/auth/login', { email, password: 'another password' })).status).toBe(200);
  });
});

describe('refused callbacks', () => {
  it('refuses a state used once already, and the session is not given twice', async () => {
    const browser = new Browser(service.url);
    const account = fakes.google.addAccount({ email: uniqueEmail('reuse') });
    const { authorizeUrl } = await start(browser, 'google');
    const callbackUrl = await consent(browser, authorizeUrl, { account });
    const stateCookie = browser.cookies.get('oauth_state')!;
    expectSignedIn(await browser.get(callbackUrl));
    // The same answer again from the same browser, its state cookie put back.
    browser.cookies.set('oauth_state', stateCookie);
    browser.cookies.delete('session');
    expectRefused(await browser.get(callbackUrl), 'invalid_state');
  });

  it('refuses a state the service never made, of any shape', async () => {
    const browser = new Browser(service.url);
    await start(browser, 'google');
    const forged = 'A'.repeat(43);
    for (const state of [forged, 'x', 'A'.repeat(5000), '%E0%A4%A']) {
      expectRefused(await browser.get(`/api/oauth/google/callback?code=abc&state=${state}`), 'invalid_state');
    }
  });

  it('refuses a state started in another browser, and leaves it to the browser that started it', async () => {
    const victim = new Browser(service.url);
    const account = fakes.github.addAccount({ emails: [{ email: uniqueEmail('victim'), primary: true, verified: true }] });
    const { authorizeUrl } = await start(victim, 'github');
    const callbackUrl = await consent(victim, authorizeUrl, { account });

    // Another browser with a sign-in of its own, and one with no state cookie at all.
    const other = new Browser(service.url);
    await start(other, 'github');
    expectRefused(await other.get(callbackUrl), 'invalid_state');
    expectRefused(await new Browser(service.url).get(callbackUrl), 'invalid_state');

    expectSignedIn(await victim.get(callbackUrl));
  });

  it('refuses a state presented to the other provider’s callback', async () => {
    const browser = new Browser(service.url);
    const { state } = await start(browser, 'google');
    expectRefused(await browser.get(`/api/oauth/github/callback?code=abc&state=${state}`), 'invalid_state');
  });

  it('answers denied consent with access_denied, and the state cannot be used after', async () => {
    const browser = new Browser(service.url);
    const { authorizeUrl } = await start(browser, 'google');
    const callbackUrl = await consent(browser, authorizeUrl, 'deny');
    expect(new URL(callbackUrl).searchParams.get('error')).toBe('access_denied');
    const stateCookie = browser.cookies.get('oauth_state')!;
    expectRefused(await browser.get(callbackUrl), 'access_denied');
    browser.cookies.set('oauth_state', stateCookie);
    expectRefused(await browser.get(callbackUrl), 'invalid_state');
  });

  it('answers any other error from the provider with provider_error', async () => {
    const browser = new Browser(service.url);
    const { state } = await start(browser, 'github');
    expectRefused(await browser.get(`/api/oauth/github/callback?error=temporarily_unavailable&state=${state}`), 'provider_error');
  });

  it('refuses a callback without its code or state, or with either twice', async () => {
    const browser = new Browser(service.url);
    const first = await start(browser, 'google');
    expectRefused(await browser.get(`/api/oauth/google/callback?state=${first.state}`), 'invalid_request');
    const second = await start(browser, 'google');
    expectRefused(await browser.get('/api/oauth/google/callback?code=abc'), 'invalid_request');
    expectRefused(await browser.get('/api/oauth/google/callback'), 'invalid_request');
    expectRefused(await browser.get(`/api/oauth/google/callback?code=abc&state=${second.state}&state=${second.state}`), 'invalid_request');
    const third = await start(browser, 'google');
    expectRefused(await browser.get(`/api/oauth/google/callback?code=a&code=b&state=${third.state}`), 'invalid_request');
  });

  it('answers 400 JSON instead of a redirect when no dashboard is configured, and the user on success', async () => {
    const browser = new Browser(noDashboard.url);
    const { state } = await start(browser, 'google');
    expect(await browser.get(`/api/oauth/google/callback?state=${state}`)).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
    const refused = await browser.get(`/api/oauth/google/callback?code=abc&state=${'B'.repeat(43)}`);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: expect.stringMatching(/start again/), code: 'invalid_state' });
    expect(sessionOf(refused)).toBeUndefined();

    const email = uniqueEmail('no-dashboard');
    const { callback } = await signIn('google', fakes.google.addAccount({ email }), browser);
    expect(callback.status, callback.text).toBe(200);
    expect(callback.body.user).toMatchObject({ email, providers: ['google'], hasPassword: false });
    expect(sessionOf(callback)).toMatch(/^session=[a-z2-7]{32};/);
  });
});

describe('a provider that fails', () => {
  let warnings: string[];
  beforeAll(() => {
    warnings = [];
    // The service logs each provider failure (WARN): kept here, and read below.
    vi.spyOn(console, 'warn').mockImplementation((line: unknown) => void warnings.push(String(line)));
  });
  afterEach(() => {
    warnings.length = 0;
  });
  afterAll(() => {
    vi.restoreAllMocks();
  });

  /** Signs in with an account whose provider fails as told; the callback must refuse it and write nothing. */
  async function expectProviderError(provider: Provider, fail: Record<string, Failure | boolean>) {
    const email = uniqueEmail('failing');
    const account =
      provider === 'google'
        ? fakes.google.addAccount({ email, fail })
        : fakes.github.addAccount({ emails: [{ email, primary: true, verified: true }], fail });
    const browser = new Browser(service.url);
    const { authorizeUrl } = await start(browser, provider);
    const callbackUrl = await consent(browser, authorizeUrl, { account });
    const res = await browser.get(callbackUrl);
    expect({ fail, status: res.status, location: res.location }).toEqual({ fail, status: 302, location: `${DASHBOARD_ORIGIN}/?error=provider_error` });
    expectRefused(res, 'provider_error');
    const subject = provider === 'google' ? fakes.google.account(account).sub : String(fakes.github.account(account).id);
    await expectNoAccount(provider, subject, email);
    // Logged with the provider, and without the authorization code.
    const code = new URL(callbackUrl).searchParams.get('code')!;
    expect(warnings.filter((line) => line.includes('OAuth provider failed') && line.includes(provider))).toHaveLength(1);
    expect(warnings.join('\n')).not.toContain(code);
    warnings.length = 0;
  }

  it('Google: token endpoint answering 4xx, 5xx, garbage, or dropping the connection', async () => {
    for (const failure of ['status-400', 'status-401', 'status-500', 'garbage', 'drop'] as const) await expectProviderError('google', { token: failure });
  });

  it('Google: userinfo answering 4xx, 5xx, garbage, dropping the connection, or describing another account', async () => {
    for (const failure of ['status-400', 'status-401', 'status-500', 'garbage', 'drop'] as const) await expectProviderError('google', { userinfo: failure });
    await expectProviderError('google', { otherSubject: true });
  });

  it('GitHub: token endpoint, /user and /user/emails answering 4xx, 5xx, garbage, or dropping the connection', async () => {
    for (const step of ['token', 'user', 'emails']) {
      for (const failure of ['status-401', 'status-500', 'garbage', 'drop'] as const) await expectProviderError('github', { [step]: failure });
    }
  });

  it('GitHub: a code it refuses (200 with an error body), as for a code nobody issued', async () => {
    const browser = new Browser(service.url);
    const { state } = await start(browser, 'github');
    expectRefused(await browser.get(`/api/oauth/github/callback?code=forged&state=${state}`), 'provider_error');
    expect(warnings.filter((line) => line.includes('OAuth provider failed'))).toHaveLength(1);
  });

  it('Google: a code exchanged without the verifier of its sign-in is refused (PKCE)', async () => {
    // Browser A's consent answer carried to browser B's sign-in: the state is B's, the code was bound to A's verifier.
    const a = new Browser(service.url);
    const account = fakes.google.addAccount({ email: uniqueEmail('pkce') });
    const codeOfA = new URL(await consent(a, (await start(a, 'google')).authorizeUrl, { account })).searchParams.get('code')!;
    const b = new Browser(service.url);
    const { state } = await start(b, 'google');
    expectRefused(await b.get(`/api/oauth/google/callback?code=${codeOfA}&state=${state}`), 'provider_error');
    await expectNoAccount('google', fakes.google.account(account).sub, fakes.google.account(account).email);
  });
});

describe('client secrets kept in Secrets Manager, as in AWS', () => {
  let secrets: Awaited<ReturnType<typeof startFakeSecretsManager>>;
  let viaSecrets: ManagementGateway;
  const GOOGLE_SECRET_ID = 'licensing/test/google-client-secret';

  beforeAll(async () => {
    secrets = await startFakeSecretsManager();
    // The stack's way: the client id, and the id of the secret instead of the secret.
    const { GOOGLE_CLIENT_SECRET: _google, GITHUB_CLIENT_SECRET: _github, ...env } = fakes.env;
    viaSecrets = await startManagementGateway({
      ...env,
      DASHBOARD_URL: DASHBOARD_ORIGIN,
      SECRETS_MANAGER_ENDPOINT: secrets.url,
      GOOGLE_CLIENT_SECRET_ID: GOOGLE_SECRET_ID,
      GITHUB_CLIENT_SECRET_ID: 'licensing/test/github-client-secret',
    });
  });
  afterAll(async () => {
    await viaSecrets?.close();
    await secrets?.close();
  });

  it('reads the secret on the first callback and keeps it; one it cannot read is temporarily_unavailable, and read again next time', async () => {
    const errors: string[] = [];
    const printed = vi.spyOn(console, 'error').mockImplementation((line: unknown) => void errors.push(String(line)));
    try {
      // Not there yet: the sign-in starts (no secret needed), and its callback is refused without a user.
      const email = uniqueEmail('secret');
      const account = fakes.google.addAccount({ email });
      const first = await signIn('google', account, new Browser(viaSecrets.url));
      expectRefused(first.callback, 'temporarily_unavailable');
      await expectNoAccount('google', fakes.google.account(account).sub, email);
      expect(errors.filter((line) => line.includes('OAuth client secret unavailable'))).toHaveLength(1);
      expect(errors.join('\n')).not.toContain(fakes.google.clientSecret);

      secrets.put(GOOGLE_SECRET_ID, fakes.google.clientSecret);
      for (let n = 0; n < 2; n++) expectSignedIn((await signIn('google', account, new Browser(viaSecrets.url))).callback);
      expect(secrets.reads(GOOGLE_SECRET_ID)).toBe(2);
    } finally {
      printed.mockRestore();
    }
  });
});
