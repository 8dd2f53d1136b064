import { describe, expect, inject, it } from 'vitest';
import { Client, newTenant, uniqueEmail } from '../../support/client.js';
import { joinedMember } from '../../support/team.js';
import { emailsSent, sentEmails } from '../../support/mail.js';
import { localData } from '../../support/table.js';
import { activate, body, fake, shop, subscribe, type Shop } from '../../support/plan-shop.js';
import { PortalBuyer, signInLink } from '../../support/portal-buyer.js';
import { sha256Hex } from '../../../shared/platform/ids.js';

const base = inject('baseUrl');
const signIn = (publicKey: string, email: string, origin: string | null = null) =>
  new Client().post('/public/v1/portal/sign-in', { email, public_key: publicKey }, { origin });

/** A shop with its portal on, and a buyer subscribed to Basic (3 seats) with one site active, plus a second license. */
async function portalShop() {
  const s = await shop();
  await body(s.tenant.put('/api/portal-settings', { enabled: true, name: 'Tier Co', accentColor: '#0B7285', supportEmail: 'help@tier.example.com' }));
  const email = uniqueEmail('buyer');
  const bought = await subscribe(s, email);
  await activate(bought.license.licenseKey, ['shop.example.com']);
  const second = await body(s.tenant.post('/api/licenses', { productId: s.product.id, customerEmail: email, seats: 1 }), 201);
  return { s, email, bought, second };
}

async function activationsOf(s: Shop, licenseId: string) {
  return (await body(s.tenant.get(`/api/activations?license_id=${licenseId}`))).items as { id: string; domain: string; status: string }[];
}

describe('portal settings (DECISIONS §25)', () => {
  it('start off, are saved and merged by the owner, validated with clear 400s, and leave an audit entry', async () => {
    const owner = await newTenant();
    expect(await body(owner.get('/api/portal-settings'))).toEqual({ enabled: false, name: null, logoUrl: null, accentColor: null, supportEmail: null });
    const saved = { enabled: true, name: 'Acme', logoUrl: 'https://acme.example.com/logo.png', accentColor: '#0b7285', supportEmail: 'help@acme.example.com' };
    expect(await body(owner.put('/api/portal-settings', saved))).toEqual(saved);
    // A field left out keeps its value; null clears it.
    expect(await body(owner.put('/api/portal-settings', { logoUrl: null }))).toEqual({ ...saved, logoUrl: null });
    expect(await body(owner.get('/api/portal-settings'))).toEqual({ ...saved, logoUrl: null });
    for (const [field, value, message] of [
      ['logoUrl', 'http://acme.example.com/logo.png', 'logoUrl: must be an https URL'],
      ['accentColor', 'teal', 'accentColor: must be a colour as #rrggbb'],
      ['accentColor', '#12345', 'accentColor: must be a colour as #rrggbb'],
      ['supportEmail', 'not-an-address', 'supportEmail: must be a valid e-mail address'],
      ['enabled', 'yes', undefined],
      ['colour', '#ffffff', undefined],
    ] as const) {
      const res = await owner.put('/api/portal-settings', { [field]: value });
      expect(res.status, `${field}=${value}`).toBe(400);
      if (message) expect(res.body.error).toContain(message);
    }
    expect(await body(owner.get('/api/portal-settings'))).toEqual({ ...saved, logoUrl: null });
    const entries = (await body(owner.get('/api/audit-log?action=portalSettings.update'))).items;
    expect(entries).toHaveLength(2);
  });

  it('are the owner\'s and admins\' alone: developer, support and viewer are 403', async () => {
    const owner = await newTenant();
    const admin = await joinedMember(owner, 'admin', owner.userId);
    expect((await admin.put('/api/portal-settings', { enabled: true })).status).toBe(200);
    for (const role of ['developer', 'support', 'viewer']) {
      const member = await joinedMember(owner, role, owner.userId);
      expect([(await member.get('/api/portal-settings')).status, (await member.put('/api/portal-settings', { enabled: false })).status], role).toEqual([403, 403]);
    }
    expect((await body(owner.get('/api/portal-settings'))).enabled).toBe(true);
  }, 60_000);
});

describe('hosted portal sign-in (DECISIONS §25)', () => {
  it('answers 404 while the portal is off, and for an unknown public key', async () => {
    const s = await shop();
    const buyer = new PortalBuyer();
    expect((await buyer.get(`/portal?public_key=${s.publicKey}`)).status).toBe(404);
    expect(await signIn(s.publicKey, uniqueEmail('buyer'))).toMatchObject({ status: 404, body: { error: 'Portal not found' } });
    await body(s.tenant.put('/api/portal-settings', { enabled: true }));
    expect((await buyer.get(`/portal?public_key=${s.publicKey}`)).status).toBe(200);
    expect((await buyer.get('/portal?public_key=pk_nothing')).status).toBe(404);
    expect((await signIn('pk_nothing', uniqueEmail('buyer'))).status).toBe(404);
    expect((await signIn(s.publicKey, 'not-an-address')).body).toMatchObject({ error: 'email must be a valid e-mail address' });
    await body(s.tenant.put('/api/portal-settings', { enabled: false }));
    expect((await buyer.get(`/portal?public_key=${s.publicKey}`)).status).toBe(404);
  });

  it('answers 202 to a customer and a stranger alike, and e-mails only the customer a link', async () => {
    const { s, email } = await portalShop();
    const stranger = uniqueEmail('stranger');
    const answers = [await signIn(s.publicKey, stranger), await signIn(s.publicKey, email.toUpperCase())];
    expect(answers.map((a) => [a.status, a.body])).toEqual([
      [202, { message: 'If this address has licenses here, a sign-in link is on its way' }],
      [202, { message: 'If this address has licenses here, a sign-in link is on its way' }],
    ]);
    const link = await signInLink(email.toLowerCase());
    expect(link.startsWith(`${base}/portal/sign-in?token=`)).toBe(true);
    const [mail] = await sentEmails((m) => m.to.includes(email.toLowerCase()) && m.text.includes(link));
    expect(mail!.subject).toBe('Sign in to Tier Co');
    expect(await sentEmails((m) => m.to.includes(stranger))).toEqual([]);
  });

  it("links the license e-mail to the portal while it is on, and not while it is off", async () => {
    const { s, email } = await portalShop();
    const isLicenseMail = (to: string) => (m: { to: string[]; subject: string }) => m.to.includes(to) && m.subject === 'Your Tier Plugin license key';
    const [withLink] = await emailsSent(isLicenseMail(email.toLowerCase()));
    expect(withLink!.text).toContain(`${base}/portal?public_key=${s.publicKey}`);
    await body(s.tenant.put('/api/portal-settings', { enabled: false }));
    const later = uniqueEmail('later');
    await subscribe(s, later);
    const [withoutLink] = await emailsSent(isLicenseMail(later.toLowerCase()));
    expect(withoutLink!.text).not.toContain('/portal?');
  });

  it('signs in once from the link: the GET only shows a button, the POST starts a 7-day session; used again it is refused', async () => {
    const { s, email, bought } = await portalShop();
    await signIn(s.publicKey, email);
    const link = await signInLink(email.toLowerCase());
    const buyer = new PortalBuyer();
    // Opened (as a mail scanner would): a page with one button, and nothing used up.
    for (let i = 0; i < 2; i++) {
      const opened = await buyer.get(link);
      expect([opened.status, opened.cookies]).toEqual([200, []]);
      expect(opened.text).toContain('<button type="submit">Sign in</button>');
    }
    const confirmed = await buyer.post(link);
    expect(confirmed.status, confirmed.text).toBe(303);
    expect(confirmed.headers.get('location')).toBe(`/portal?public_key=${s.publicKey}`);
    const cookie = confirmed.cookies.find((c) => c.startsWith('portal_session='))!;
    expect(cookie).toMatch(/^portal_session=[a-z2-7]{52}; Max-Age=604800; Path=\/portal; HttpOnly; SameSite=Lax$/);
    // Only the token's hash is stored.
    const stored = await localData().entities.portalSession.get({ portalSessionHash: sha256Hex(buyer.session!) }).go();
    expect(stored.data).toMatchObject({ tenantId: s.tenant.userId, email: email.toLowerCase() });
    const page = await buyer.get(`/portal?public_key=${s.publicKey}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(bought.license.licenseKey);
    expect(page.text).toContain('shop.example.com');
    expect(page.text).toContain('Tier Co');
    // The link works once.
    const again = await new PortalBuyer().post(link);
    expect([again.status, again.cookies]).toEqual([400, []]);
    expect(again.text).toContain('This sign-in link has expired or was already used');
    expect((await new PortalBuyer().get(link)).status).toBe(400);
    // Signing out ends the session.
    const out = await buyer.post('/portal/sign-out');
    expect(out.status).toBe(303);
    expect(buyer.session).toBeUndefined();
    expect((await buyer.get(`/portal?public_key=${s.publicKey}`)).text).toContain('E-mail me a sign-in link');
  });

  it('refuses a link past its 15 minutes', async () => {
    const { s, email } = await portalShop();
    await signIn(s.publicKey, email);
    const link = await signInLink(email.toLowerCase());
    const token = new URL(link).searchParams.get('token')!;
    const item = await localData().entities.portalSignIn.get({ signInHash: sha256Hex(token) }).go();
    expect(item.data!.ttl - Date.now() / 1000).toBeGreaterThan(14 * 60);
    expect(item.data!.ttl - Date.now() / 1000).toBeLessThanOrEqual(15 * 60);
    await localData().entities.portalSignIn.patch({ signInHash: sha256Hex(token) }).set({ ttl: Math.floor(Date.now() / 1000) - 1 }).go();
    const buyer = new PortalBuyer();
    expect((await buyer.post(link)).status).toBe(400);
    expect(buyer.session).toBeUndefined();
  });
});

describe('what a signed-in buyer may do (DECISIONS §25)', () => {
  it("deactivates their own site only: another customer's activation is 404, and a request from another origin is 403", async () => {
    const { s, email, bought } = await portalShop();
    const other = uniqueEmail('other');
    const theirs = await body(s.tenant.post('/api/licenses', { productId: s.product.id, customerEmail: other, seats: 1 }), 201);
    await activate(theirs.licenseKey, ['other.example.com']);
    const buyer = new PortalBuyer();
    await buyer.signIn(s.publicKey, email);
    const [mine] = await activationsOf(s, bought.license.id);
    const [notMine] = await activationsOf(s, theirs.id);

    expect((await buyer.post(`/portal/activations/${notMine!.id}/deactivate`)).status).toBe(404);
    expect((await buyer.post(`/portal/activations/${mine!.id}/deactivate`, undefined, 'https://evil.example')).status).toBe(403);
    expect((await buyer.post(`/portal/activations/${mine!.id}/deactivate`, undefined, null)).status).toBe(403);
    expect((await new PortalBuyer().post(`/portal/activations/${mine!.id}/deactivate`)).status).toBe(401);
    expect((await activationsOf(s, theirs.id))[0]!.status).toBe('active');
    expect((await activationsOf(s, bought.license.id))[0]!.status).toBe('active');

    const done = await buyer.post(`/portal/activations/${mine!.id}/deactivate`);
    expect([done.status, done.headers.get('location')]).toEqual([303, `/portal?public_key=${s.publicKey}&done=deactivated`]);
    expect((await activationsOf(s, bought.license.id))[0]!.status).toBe('deactivated');
    expect((await buyer.get(`/portal?public_key=${s.publicKey}&done=deactivated`)).text).toContain('The site was deactivated');
    // Turned off, the portal ends what open sessions may do.
    await body(s.tenant.put('/api/portal-settings', { enabled: false }));
    expect((await buyer.post(`/portal/activations/${notMine!.id}/deactivate`)).status).toBe(404);
    expect((await buyer.get(`/portal?public_key=${s.publicKey}`)).status).toBe(404);
  });

  it("shows one vendor's session nothing at another vendor, even for the same e-mail", async () => {
    const { s, email } = await portalShop();
    const elsewhere = await shop();
    await body(elsewhere.tenant.put('/api/portal-settings', { enabled: true, name: 'Elsewhere' }));
    await body(elsewhere.tenant.post('/api/licenses', { productId: elsewhere.product.id, customerEmail: email, seats: 1 }), 201);
    const buyer = new PortalBuyer();
    await buyer.signIn(s.publicKey, email);
    const page = await buyer.get(`/portal?public_key=${elsewhere.publicKey}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('E-mail me a sign-in link');
    expect(page.text).not.toContain('Tier Co');
  });

  it('changes plan, cancels at period end and takes it back, and opens the billing portal, all at the fake Stripe', async () => {
    const { s, email, bought } = await portalShop();
    const buyer = new PortalBuyer();
    await buyer.signIn(s.publicKey, email);
    const page = await buyer.get(`/portal?public_key=${s.publicKey}`);
    expect(page.text).toContain(`value="${s.plans.agency.id}"`);
    const path = `/portal/subscriptions/${bought.subscriptionId}`;

    const changed = await buyer.post(`${path}/change-plan`, { planId: s.plans.agency.id });
    expect([changed.status, changed.headers.get('location')], changed.text).toEqual([303, `/portal?public_key=${s.publicKey}&done=planChanged`]);
    const updates = await fake.subscriptionUpdates(bought.subscription.id);
    expect(updates).toHaveLength(1);
    expect(updates[0]!.params).toMatchObject({ proration_behavior: 'always_invoice' });

    expect((await buyer.post(`${path}/cancel`)).status).toBe(303);
    expect((await fake.subscriptionUpdates(bought.subscription.id)).at(-1)!.params).toEqual({ cancel_at_period_end: 'true' });
    expect((await buyer.get(`/portal?public_key=${s.publicKey}`)).text).toContain('Keep my subscription');
    expect((await buyer.post(`${path}/resume`)).status).toBe(303);
    expect((await fake.subscriptionUpdates(bought.subscription.id)).at(-1)!.params).toEqual({ cancel_at_period_end: 'false' });
    expect((await buyer.get(`/portal?public_key=${s.publicKey}`)).text).toContain('Cancel at period end');

    const billing = await buyer.post(`${path}/billing-portal`);
    expect(billing.status).toBe(303);
    const opened = (await fake.billingPortalSessions()).find((session) => session.session.url === billing.headers.get('location'));
    expect(opened).toMatchObject({ key: s.secretKey, session: { customer: bought.subscription.customer, return_url: `${base}/portal?public_key=${s.publicKey}` } });

    // Another customer's subscription is 404, at Stripe nothing more.
    const other = new PortalBuyer();
    const otherEmail = uniqueEmail('other');
    await body(s.tenant.post('/api/licenses', { productId: s.product.id, customerEmail: otherEmail, seats: 1 }), 201);
    await other.signIn(s.publicKey, otherEmail);
    const before = (await fake.subscriptionUpdates(bought.subscription.id)).length;
    expect((await other.post(`${path}/cancel`)).status).toBe(404);
    expect((await other.post(`${path}/change-plan`, { planId: s.plans.yearly.id })).status).toBe(404);
    expect((await other.post(`${path}/billing-portal`)).status).toBe(404);
    expect(await fake.subscriptionUpdates(bought.subscription.id)).toHaveLength(before);
  });
});
