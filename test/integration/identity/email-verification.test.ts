import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../shared/platform/ids.js';
import { Client, DASHBOARD_ORIGIN, unverifiedTenant, uniqueEmail } from '../../support/client.js';
import { emailsOnceSettled, sentEmails, verificationLinks } from '../../support/mail.js';
import { startManagementGateway, type ManagementGateway } from '../../support/management-gateway.js';
import { localData } from '../../support/table.js';

/**
 * E-mail verification (DECISIONS §13) over HTTP on the shared stack: the e-mail registering queues, its link, the
 * dashboard it lands on, and asking again. The stack's dashboard is `DASHBOARD_ORIGIN`; a gateway of its own answers
 * the link without one.
 */
let noDashboard: ManagementGateway;
beforeAll(async () => {
  noDashboard = await startManagementGateway({});
});
afterAll(() => noDashboard?.close());

/** Opens a link as a browser would, without following the redirect. */
const open = (link: string) => fetch(link, { redirect: 'manual' });
const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
const me = async (client: Client) => (await client.get('/api/auth/me')).body.user;

describe('registering', () => {
  it('answers an unverified user and e-mails a link to the service that works once', async () => {
    const client = new Client();
    const email = uniqueEmail('verify');
    const registered = await client.post('/api/auth/register', { email, password: 'correct horse battery', name: 'Vera' });
    expect(registered.status, registered.text).toBe(201);
    expect(registered.body.user.emailVerified).toBe(false);
    expect((await me(client)).emailVerified).toBe(false);

    const [link] = await verificationLinks(email);
    expect(link).toMatch(new RegExp(`^${client.baseUrl}/api/auth/verify-email\\?token=[a-z2-7]{32}$`));
    const [mail] = await sentEmails((sent) => sent.to.includes(email));
    expect(mail).toMatchObject({ to: [email], subject: 'Confirm your e-mail address' });
    expect(mail!.text).toContain('Hi Vera,');
    expect(mail!.text).toContain('The link works once, for 24 hours.');
    expect(mail!.html).toContain(`href="${link}"`);
    // Only the token's hash is stored.
    const { data: item } = await localData().entities.emailVerification.get({ tokenHash: sha256Hex(tokenOf(link!)) }).go({ consistent: true });
    expect(item).toMatchObject({ userId: registered.body.user.id, email });
    expect(JSON.stringify(item)).not.toContain(tokenOf(link!));

    const verified = await open(link!);
    expect(verified.status).toBe(302);
    expect(verified.headers.get('location')).toBe(`${DASHBOARD_ORIGIN}/?verified=1`);
    expect(verified.headers.get('cache-control')).toBe('no-store');
    expect((await me(client)).emailVerified).toBe(true);
    expect((await new Client().post('/api/auth/login', { email, password: 'correct horse battery' })).body.user.emailVerified).toBe(true);

    const again = await open(link!);
    expect([again.status, again.headers.get('location')]).toEqual([302, `${DASHBOARD_ORIGIN}/?error=invalid_token`]);
  });

  it('e-mails nothing when the registration is refused', async () => {
    const tenant = await unverifiedTenant();
    expect((await new Client().post('/api/auth/register', { email: tenant.email.toUpperCase(), password: 'another password' })).status).toBe(409);
    // The refused registration's transaction held its e-mail too: once the queue is idle, only the first one's was sent.
    expect(await emailsOnceSettled((sent) => sent.to.includes(tenant.email), 1)).toHaveLength(1);
  });
});

describe('the link', () => {
  it('refuses a token that is malformed, unknown or missing, on the dashboard or as JSON', async () => {
    const unknown = 'a'.repeat(32);
    for (const query of [`token=${unknown}`, 'token=short', 'token=', '', `token=${unknown.toUpperCase()}`]) {
      const res = await open(`${new Client().baseUrl}/api/auth/verify-email?${query}`);
      expect([res.status, res.headers.get('location')], query).toEqual([302, `${DASHBOARD_ORIGIN}/?error=invalid_token`]);
      const json = await new Client(noDashboard.url).get(`/api/auth/verify-email?${query}`);
      expect([json.status, json.body], query).toEqual([400, { error: 'Invalid or expired token' }]);
    }
  });

  it('answers JSON without a dashboard', async () => {
    const client = new Client(noDashboard.url);
    const email = uniqueEmail('json');
    // A server-side client: no Origin (this gateway has no dashboard to allow).
    expect((await client.post('/api/auth/register', { email, password: 'correct horse battery' }, { origin: null })).status).toBe(201);
    const [link] = await verificationLinks(email);
    expect(link!.startsWith(`${noDashboard.url}/api/auth/verify-email?token=`)).toBe(true);
    expect(await client.get(new URL(link!).pathname + new URL(link!).search)).toMatchObject({ status: 200, body: { verified: true } });
    expect((await me(client)).emailVerified).toBe(true);
  });

  it('refuses a token past its 24 hours, though its item is still there', async () => {
    const tenant = await unverifiedTenant();
    const [link] = await verificationLinks(tenant.email);
    const tokenHash = sha256Hex(tokenOf(link!));
    await localData().entities.emailVerification.patch({ tokenHash }).set({ ttl: Math.floor(Date.now() / 1000) - 1 }).go();
    expect((await open(link!)).headers.get('location')).toBe(`${DASHBOARD_ORIGIN}/?error=invalid_token`);
    expect((await me(tenant)).emailVerified).toBe(false);
  });
});

describe('asking again', () => {
  it('sends a fresh link while the address is not verified, then refuses', async () => {
    const tenant = await unverifiedTenant();
    await verificationLinks(tenant.email);
    expect(await tenant.post('/api/auth/verify-email/resend')).toMatchObject({ status: 202, body: { sent: true } });
    const [first, second] = await verificationLinks(tenant.email, 2);
    expect(second).not.toBe(first);
    expect((await open(second!)).headers.get('location')).toBe(`${DASHBOARD_ORIGIN}/?verified=1`);
    expect(await tenant.post('/api/auth/verify-email/resend')).toMatchObject({ status: 400, body: { error: 'Email is already verified' } });
    // An earlier link still works until used or expired; the address is verified either way.
    expect((await open(first!)).headers.get('location')).toBe(`${DASHBOARD_ORIGIN}/?verified=1`);
  });

  it('needs a signed-in session: not an API key, nor nobody', async () => {
    const tenant = await unverifiedTenant();
    const server = new Client();
    server.bearer = (await tenant.post('/api/api-keys', { name: 'server' })).body.key;
    expect(await server.post('/api/auth/verify-email/resend', undefined, { origin: null })).toMatchObject({
      status: 403,
      body: { error: 'This route needs a signed-in session' },
    });
    expect((await new Client().post('/api/auth/verify-email/resend')).status).toBe(401);
    expect((await tenant.post('/api/auth/verify-email/resend', undefined, { origin: 'https://evil.example' })).status).toBe(403);
  });
});
