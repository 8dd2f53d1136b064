import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../shared/platform/ids.js';
import { Client, newTenant, unverifiedTenant, uniqueEmail } from '../../support/client.js';
import { localData } from '../../support/table.js';

describe('registration', () => {
  it('creates a developer, answers 201 with the user and starts a session', async () => {
    const client = new Client();
    const email = uniqueEmail();
    const res = await client.post('/api/auth/register', { email, password: 'abcdefgh', name: 'Ada' });
    expect(res.status).toBe(201);
    expect(res.body.user).toMatchObject({ email, name: 'Ada', role: 'developer' });
    expect(res.body.user.id).toMatch(/^usr_[a-z2-7]{24}$/);
    expect(res.body.user).not.toHaveProperty('passwordHash');
    expect((await client.get('/api/auth/me')).body.user.email).toBe(email);
  });

  it('refuses passwords under 8 characters and writes nothing', async () => {
    const email = uniqueEmail();
    const res = await new Client().post('/api/auth/register', { email, password: 'abcdefg' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/password/);
    expect((await new Client().post('/api/auth/login', { email, password: 'abcdefg' })).status).toBe(401);
  });

  it('refuses a duplicate e-mail with 409, whatever its case', async () => {
    const email = uniqueEmail();
    expect((await new Client().post('/api/auth/register', { email, password: 'abcdefgh' })).status).toBe(201);
    const again = await new Client().post('/api/auth/register', { email: email.toUpperCase(), password: 'abcdefgh' });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: 'Email already registered' });
  });

  it('refuses malformed JSON, wrong types, unknown fields and non-JSON bodies', async () => {
    const client = new Client();
    const email = uniqueEmail();
    const malformed = await client.request('POST', '/api/auth/register', { rawBody: '{"email":', headers: { 'content-type': 'application/json' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ error: 'Malformed JSON body' });
    const wrongType = await client.post('/api/auth/register', { email, password: 12345678 });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.details[0].path).toBe('password');
    const unknown = await client.post('/api/auth/register', { email, password: 'abcdefgh', admin: true });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatch(/Unknown field: admin/);
    const scalar = await client.request('POST', '/api/auth/register', { rawBody: '"hello"', headers: { 'content-type': 'application/json' } });
    expect(scalar.status).toBe(400);
    const form = await client.request('POST', '/api/auth/register', {
      rawBody: `email=${email}&password=abcdefgh`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(415);
    // None of these created the account.
    expect((await client.post('/api/auth/register', { email, password: 'abcdefgh' })).status).toBe(201);
  });
});

describe('login and sessions', () => {
  it('sets the session cookie with its flags and a 32-character base32 token (20 bytes), and the device cookie', async () => {
    const tenant = await unverifiedTenant();
    const client = new Client();
    const res = await client.post('/api/auth/login', { email: tenant.email, password: tenant.password });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      user: { id: tenant.userId, email: tenant.email, name: 'Dev', role: 'developer', avatarUrl: null, createdAt: expect.any(String), providers: [], hasPassword: true, emailVerified: false },
    });
    const cookie = res.cookies.find((c) => c.startsWith('session='))!;
    const [pair, ...flags] = cookie.split(';').map((p) => p.trim());
    expect(pair).toMatch(/^session=[a-z2-7]{32}$/);
    expect(flags).toEqual(expect.arrayContaining(['HttpOnly', 'Path=/', 'SameSite=Lax', 'Max-Age=2592000']));
    expect(flags).not.toContain('Secure'); // Secure, with SameSite=None, in AWS only: browsers drop None without Secure
    expect(client.cookie).not.toBe(tenant.cookie); // a new token at each login
    // The browser is known to the account from now on (DECISIONS §20), for a year, and only /api reads it.
    const [device, ...deviceFlags] = res.cookies.find((c) => c.startsWith('device='))!.split(';').map((p) => p.trim());
    expect(device).toMatch(/^device=[a-z2-7]{32}$/);
    expect(deviceFlags).toEqual(expect.arrayContaining(['HttpOnly', 'Path=/api', 'SameSite=Lax', 'Max-Age=31536000']));
    // The same browser keeps its token from one sign-in to the next.
    expect((await client.post('/api/auth/login', { email: tenant.email, password: tenant.password })).cookies.find((c) => c.startsWith('device='))).toContain(device);
  });

  it('answers an unknown e-mail and a wrong password alike', async () => {
    const tenant = await newTenant();
    const wrong = await new Client().post('/api/auth/login', { email: tenant.email, password: 'not the password' });
    const unknown = await new Client().post('/api/auth/login', { email: uniqueEmail(), password: 'not the password' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.cookies).toEqual([]);
  });

  it('logout clears the cookie and revokes the token', async () => {
    const tenant = await newTenant();
    const token = tenant.cookie!;
    const res = await tenant.post('/api/auth/logout');
    expect(res.status).toBe(204);
    expect(res.cookies[0]).toMatch(/^session=;.*Max-Age=0/);
    const replay = new Client();
    replay.cookie = token;
    expect((await replay.get('/api/auth/me')).status).toBe(401);
  });

  it('refreshes a session with under 15 days left and leaves a fresher one alone', async () => {
    const tenant = await newTenant();
    expect((await tenant.get('/api/auth/me')).cookies).toEqual([]);
    const data = localData();
    const soon = new Date(Date.now() + 10 * 24 * 3600 * 1000);
    await data.entities.session.patch({ tokenHash: sha256Hex(tenant.cookie!) }).set({ expiresAt: soon.toISOString() }).go();
    const res = await tenant.get('/api/auth/me');
    expect(res.status).toBe(200);
    expect(res.cookies[0]).toMatch(new RegExp(`^session=${tenant.cookie};.*Max-Age=2592000`));
    const { data: session } = await data.entities.session.get({ tokenHash: sha256Hex(tenant.cookie!) }).go();
    expect(Date.parse(session!.expiresAt)).toBeGreaterThan(Date.now() + 29 * 24 * 3600 * 1000);
  });

  it('refuses an expired session', async () => {
    const tenant = await newTenant();
    await localData().entities.session.patch({ tokenHash: sha256Hex(tenant.cookie!) }).set({ expiresAt: new Date(Date.now() - 1000).toISOString() }).go();
    expect((await tenant.get('/api/auth/me')).status).toBe(401);
  });
});

describe('profile and password', () => {
  it('updates name and avatar', async () => {
    const tenant = await newTenant();
    const res = await tenant.put('/api/auth/me', { name: 'Grace', avatarUrl: 'https://cdn.example.com/a.png' });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ name: 'Grace', avatarUrl: 'https://cdn.example.com/a.png' });
    expect((await tenant.get('/api/auth/me')).body.user.name).toBe('Grace');
    expect((await tenant.put('/api/auth/me', { avatarUrl: 'javascript:alert(1)' })).status).toBe(400);
    expect((await tenant.put('/api/auth/me', { role: 'admin' })).status).toBe(400);
  });

  it('changes the password, keeps this session and ends the others', async () => {
    const tenant = await newTenant();
    const other = new Client();
    await other.post('/api/auth/login', { email: tenant.email, password: tenant.password });
    expect((await other.get('/api/auth/me')).status).toBe(200);

    const wrong = await tenant.post('/api/auth/change-password', { currentPassword: 'nope nope', newPassword: 'new password 1' });
    expect(wrong.status).toBe(400);
    // A user with a password always needs it (only a user created by OAuth sets a first one without: oauth.test.ts).
    expect(await tenant.post('/api/auth/change-password', { newPassword: 'new password 1' })).toMatchObject({ status: 400, body: { error: 'currentPassword is required' } });
    const res = await tenant.post('/api/auth/change-password', { currentPassword: tenant.password, newPassword: 'new password 1' });
    expect(res.status).toBe(200);
    expect((await tenant.get('/api/auth/me')).status).toBe(200);
    expect((await other.get('/api/auth/me')).status).toBe(401);
    expect((await new Client().post('/api/auth/login', { email: tenant.email, password: tenant.password })).status).toBe(401);
    expect((await new Client().post('/api/auth/login', { email: tenant.email, password: 'new password 1' })).status).toBe(200);
  });
});

describe('CSRF origin rule', () => {
  it('refuses a cookie-authenticated change from a foreign or missing origin with 403', async () => {
    const tenant = await newTenant();
    const body = { name: 'Widget', productType: 'plugin' };
    const foreign = await tenant.post('/api/products', body, { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual({ error: 'Origin not allowed' });
    const missing = await tenant.post('/api/products', body, { origin: null });
    expect(missing.status).toBe(403);
    expect((await tenant.get('/api/products', { origin: null })).body.items).toEqual([]);
    // The service's own origin is allowed as well as the dashboard's.
    expect((await tenant.post('/api/products', body, { origin: new URL(tenant.baseUrl).origin })).status).toBe(201);
  });

  it('answers CORS for the dashboard only, with credentials', async () => {
    const client = new Client();
    const preflight = await client.request('OPTIONS', '/api/products', { headers: { 'access-control-request-method': 'POST' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://dashboard.test');
    expect(preflight.headers.get('access-control-allow-credentials')).toBe('true');
    const foreign = await client.request('OPTIONS', '/api/products', { origin: 'https://evil.example' });
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('API keys', () => {
  it('creates a key shown once, lists it without the secret, authenticates with it and revokes it', async () => {
    const tenant = await newTenant();
    const created = await tenant.post('/api/api-keys', { name: 'CI' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.stringMatching(/^key_/), name: 'CI', key: expect.stringMatching(/^sk_[a-z2-7]{32}$/), prefix: created.body.key.slice(0, 12), role: 'admin', createdAt: expect.any(String) });

    const list = await tenant.get('/api/api-keys');
    expect(list.body.items).toEqual([{ id: created.body.id, name: 'CI', prefix: created.body.prefix, role: 'admin', createdAt: created.body.createdAt, lastUsedAt: null }]);

    const server = new Client();
    server.bearer = created.body.key;
    const me = await server.get('/api/auth/me');
    expect(me.status).toBe(200);
    expect(me.body.user.id).toBe(tenant.userId);
    // No origin and no cookie needed for a state change with a secret key.
    expect((await server.post('/api/products', { name: 'From CI', productType: 'app' }, { origin: null })).status).toBe(201);
    expect((await tenant.get('/api/api-keys')).body.items[0].lastUsedAt).not.toBeNull();

    expect((await tenant.delete(`/api/api-keys/${created.body.id}`)).status).toBe(204);
    const after = await server.get('/api/auth/me');
    expect(after.status).toBe(401);
    expect((await tenant.delete(`/api/api-keys/${created.body.id}`)).status).toBe(404);
  });

  it('refuses public keys, unknown keys and missing credentials with 401', async () => {
    const client = new Client();
    client.bearer = 'pk_abcdefghijklmnopqrstuvwxyz234567';
    expect(await client.get('/api/products')).toMatchObject({ status: 401, body: { error: 'A secret API key (sk_) is required' } });
    client.bearer = 'sk_abcdefghijklmnopqrstuvwxyz234567';
    expect((await client.get('/api/products')).status).toBe(401);
    expect((await new Client().get('/api/products')).status).toBe(401);
  });

  it("keeps a key off the account's own credentials, so revoking a leaked key locks its holder out", async () => {
    const tenant = await newTenant();
    const leaked = (await tenant.post('/api/api-keys', { name: 'leaked' })).body;
    const holder = new Client();
    holder.bearer = leaked.key;
    const refused = { status: 403, body: { error: 'This route needs a signed-in session' } };
    // No other key, no revocation, no password (nor a first one), no profile, no sign-out of the owner's sessions.
    expect(await holder.post('/api/api-keys', { name: 'a spare' }, { origin: null })).toMatchObject(refused);
    expect(await holder.delete(`/api/api-keys/${leaked.id}`, { origin: null })).toMatchObject(refused);
    expect(await holder.post('/api/auth/change-password', { currentPassword: tenant.password, newPassword: 'mine from now on' }, { origin: null })).toMatchObject(refused);
    expect(await holder.post('/api/auth/change-password', { newPassword: 'mine from now on' }, { origin: null })).toMatchObject(refused);
    expect(await holder.put('/api/auth/me', { name: 'Mallory' }, { origin: null })).toMatchObject(refused);
    expect(await holder.post('/api/auth/logout', undefined, { origin: null })).toMatchObject(refused);
    // A key with the owner's cookie beside it is still a key.
    holder.cookie = tenant.cookie;
    expect(await holder.post('/api/auth/logout')).toMatchObject(refused);
    holder.cookie = undefined;

    // Nothing changed, and everything else still works with the key.
    expect((await tenant.get('/api/api-keys')).body.items.map((key: { id: string }) => key.id)).toEqual([leaked.id]);
    expect((await tenant.get('/api/auth/me')).body.user.name).toBe('Dev');
    expect((await new Client().post('/api/auth/login', { email: tenant.email, password: tenant.password })).status).toBe(200);
    expect((await holder.get('/api/api-keys')).status).toBe(200);
    expect((await holder.post('/api/products', { name: 'Still mine', productType: 'app' }, { origin: null })).status).toBe(201);

    // Revoked by the owner, the key is worth nothing.
    expect((await tenant.delete(`/api/api-keys/${leaked.id}`)).status).toBe(204);
    expect((await holder.get('/api/products')).status).toBe(401);
  });

  it("cannot revoke another tenant's key", async () => {
    const owner = await newTenant();
    const other = await newTenant();
    const key = await owner.post('/api/api-keys', { name: 'mine' });
    expect((await other.delete(`/api/api-keys/${key.body.id}`)).status).toBe(404);
    expect((await owner.get('/api/api-keys')).body.items).toHaveLength(1);
  });
});
