import { describe, expect, inject, it } from 'vitest';
import { Client, newTenant, uniqueEmail } from '../../support/client.js';
import { newLicense, newProduct, newRelease, type Tenant } from '../../support/licensing-fixtures.js';
import { localData } from '../../support/table.js';
import { activate, body, fake, shop, subscribe } from '../../support/plan-shop.js';
import { PortalBuyer, signInLink } from '../../support/portal-buyer.js';
import { joinedMember } from '../../support/team.js';
import { sha256Hex } from '../../../shared/platform/ids.js';

const base = inject('baseUrl');
const PORTAL_OFF = 'The customer portal is off: turn it on first (PUT /api/portal-settings with enabled: true) to view it as a customer';
const NO_PRODUCT = 'The customer has no license: give the productId of the product the portal should open on';
const READ_ONLY = 'This is a preview: changes are the customer&#39;s to make';
const USED_LINK = 'This sign-in link has expired or was already used';
/** Every form a buyer's page posts a change with; a preview shows none of them. */
const ACTION_FORMS = ['/deactivate"', '/change-plan"', '/cancel"', '/resume"', '/billing-portal"'];

const banner = (email: string) => `Preview: you are viewing the portal as ${email}. Changes are disabled.`;
const preview = (client: Client, customerId: string, fields: Record<string, unknown> = {}) => client.post(`/api/customers/${customerId}/portal-preview`, fields);
const tokenOf = (url: string) => new URL(url).searchParams.get('token')!;

/** A vendor with the portal on, one product and a customer with a license; the customer's id. */
async function vendorWithCustomer() {
  const tenant = await newTenant();
  await body(tenant.put('/api/portal-settings', { enabled: true, name: 'Preview Co' }));
  const product = await newProduct(tenant);
  const email = uniqueEmail('buyer');
  const license = await newLicense(tenant, product.id, { customerEmail: email });
  const customers = (await body(tenant.get(`/api/customers?search=${encodeURIComponent(email)}`))).items as { id: string }[];
  return { tenant, product, email, license, customerId: customers[0]!.id };
}

/** The vendor opens a preview link in a browser of its own: the page it lands on. */
async function openPreview(url: string) {
  const vendor = new PortalBuyer();
  const opened = await vendor.get(url);
  expect(opened.status, opened.text).toBe(303);
  return { vendor, opened, page: await vendor.get(opened.headers.get('location')!) };
}

describe('"View as customer": the link (issue 51)', () => {
  it('opens the portal as the customer once, in a 1-hour read-only session with a banner and no action buttons', async () => {
    const s = await shop();
    await body(s.tenant.put('/api/portal-settings', { enabled: true, name: 'Tier Co' }));
    await newRelease(s.tenant as unknown as Tenant, s.product.id, { version: '2.1.0' });
    const email = uniqueEmail('buyer');
    const bought = await subscribe(s, email);
    await activate(bought.license.licenseKey, ['shop.example.com']);

    const made = await body(preview(s.tenant, bought.license.customerId), 201);
    expect(made.url).toMatch(new RegExp(`^${base}/portal/preview\\?token=[a-z2-7]{32}$`));
    expect(Date.parse(made.expiresAt) - Date.now()).toBeGreaterThan(4 * 60_000);
    expect(Date.parse(made.expiresAt) - Date.now()).toBeLessThanOrEqual(5 * 60_000);

    const { vendor, opened, page } = await openPreview(made.url);
    expect(opened.headers.get('location')).toBe(`/portal?public_key=${s.publicKey}`);
    expect(opened.cookies.find((c) => c.startsWith('portal_session='))).toMatch(/^portal_session=[a-z2-7]{52}; Max-Age=3600; Path=\/portal; HttpOnly; SameSite=Lax$/);
    const session = await localData().entities.portalSession.get({ portalSessionHash: sha256Hex(vendor.session!) }).go();
    expect(session.data).toMatchObject({ tenantId: s.tenant.userId, email: email.toLowerCase(), preview: true });
    expect(session.data!.ttl - Date.now() / 1000).toBeLessThanOrEqual(3600);

    expect(page.status).toBe(200);
    expect(page.text).toContain(banner(email.toLowerCase()));
    expect(page.text).toContain(bought.license.licenseKey);
    expect(page.text).toContain('shop.example.com');
    for (const form of ACTION_FORMS) expect(page.text).not.toContain(form);
    // Downloads and invoices stay: what the customer sees, less the buttons.
    expect(page.text).toMatch(/<a class="button" href="[^"]+\/dl\/rel_\w+\?expires=\d+&amp;signature=[0-9a-f]+" download>/);
    expect(page.text).toContain('<h2>Payments</h2>');

    // The customer's own session shows the same account with its buttons, and no banner.
    const customer = new PortalBuyer();
    await customer.signIn(s.publicKey, email.toLowerCase());
    const own = await customer.get(`/portal?public_key=${s.publicKey}`);
    expect(own.text).not.toContain('Preview:');
    for (const form of ACTION_FORMS.filter((f) => f !== '/resume"')) expect(own.text).toContain(form);

    // The link works once.
    const again = await new PortalBuyer().get(made.url);
    expect([again.status, again.cookies]).toEqual([400, []]);
    expect(again.text).toContain(USED_LINK);
  });

  it('refuses every change posted in a preview with 403, and changes nothing', async () => {
    const s = await shop();
    await body(s.tenant.put('/api/portal-settings', { enabled: true }));
    const email = uniqueEmail('buyer');
    const bought = await subscribe(s, email);
    await activate(bought.license.licenseKey, ['shop.example.com']);
    const [site] = (await body(s.tenant.get(`/api/activations?license_id=${bought.license.id}`))).items as { id: string }[];
    const { vendor } = await openPreview((await body(preview(s.tenant, bought.license.customerId), 201)).url);

    const sub = `/portal/subscriptions/${bought.subscriptionId}`;
    const posts: [string, Record<string, string>?][] = [
      [`/portal/activations/${site!.id}/deactivate`],
      [`${sub}/change-plan`, { planId: s.plans.agency.id }],
      [`${sub}/cancel`],
      [`${sub}/resume`],
      [`${sub}/billing-portal`],
    ];
    for (const [path, form] of posts) {
      const refused = await vendor.post(path, form);
      expect(refused.status, path).toBe(403);
      expect(refused.text, path).toContain(READ_ONLY);
    }
    expect((await body(s.tenant.get(`/api/activations?license_id=${bought.license.id}`))).items[0].status).toBe('active');
    expect(await fake.subscriptionUpdates(bought.subscription.id)).toEqual([]);
    expect((await fake.billingPortalSessions()).filter((opened) => opened.key === s.secretKey)).toEqual([]);
    const [subscription] = (await body(s.tenant.get(`/api/customers/${bought.license.customerId}`))).subscriptions;
    expect(subscription).toMatchObject({ planId: s.plans.basic.id, cancelAtPeriodEnd: false });
    // Signing out of a preview is no change of the customer's: it ends the preview.
    expect((await vendor.post('/portal/sign-out')).status).toBe(303);
    expect(vendor.session).toBeUndefined();
  });

  it('is refused past its 5 minutes', async () => {
    const { tenant, customerId } = await vendorWithCustomer();
    const { url } = await body(preview(tenant, customerId), 201);
    const signInHash = sha256Hex(tokenOf(url));
    const item = await localData().entities.portalSignIn.get({ signInHash }).go();
    expect(item.data).toMatchObject({ preview: true, customerId });
    expect(item.data!.ttl - Date.now() / 1000).toBeGreaterThan(4 * 60);
    expect(item.data!.ttl - Date.now() / 1000).toBeLessThanOrEqual(5 * 60);
    await localData().entities.portalSignIn.patch({ signInHash }).set({ ttl: Math.floor(Date.now() / 1000) - 1 }).go();
    const vendor = new PortalBuyer();
    const refused = await vendor.get(url);
    expect([refused.status, vendor.session]).toEqual([400, undefined]);
    expect(refused.text).toContain(USED_LINK);
  });

  it('is no sign-in link, and a sign-in link is no preview link', async () => {
    const { tenant, product, email, customerId } = await vendorWithCustomer();
    const { url } = await body(preview(tenant, customerId), 201);
    const asSignIn = `${base}/portal/sign-in?token=${tokenOf(url)}`;
    const buyer = new PortalBuyer();
    expect((await buyer.get(asSignIn)).status).toBe(400);
    expect((await buyer.post(asSignIn)).status).toBe(400);
    expect(buyer.session).toBeUndefined();
    // Neither used it up.
    const { page } = await openPreview(url);
    expect(page.text).toContain(banner(email));

    const customer = new PortalBuyer();
    const asked = await customer.post('/public/v1/portal/sign-in', { email, public_key: product.public_key });
    expect(asked.status).toBe(303);
    const link = await signInLink(email);
    const refused = await customer.get(`${base}/portal/preview?token=${tokenOf(link)}`);
    expect([refused.status, customer.session]).toEqual([400, undefined]);
    expect((await customer.post(link)).status).toBe(303);
    expect((await customer.get(`/portal?public_key=${product.public_key}`)).text).not.toContain('Preview:');
  });
});

describe('"View as customer": which customer and product (issue 51)', () => {
  it("opens on the product asked for, else on the newest license's; without either it says what to give", async () => {
    const { tenant, product, email, customerId } = await vendorWithCustomer();
    const newer = await newProduct(tenant);
    await newLicense(tenant, newer.id, { customerEmail: email });
    const landing = async (fields: Record<string, unknown> = {}) => (await openPreview((await body(preview(tenant, customerId, fields), 201)).url)).opened.headers.get('location');
    expect(await landing()).toBe(`/portal?public_key=${newer.public_key}`);
    expect(await landing({ productId: product.id })).toBe(`/portal?public_key=${product.public_key}`);
    // A deleted product is no product to open on, asked for or licensed.
    expect((await tenant.delete(`/api/products/${newer.id}`)).status).toBe(204);
    expect(await preview(tenant, customerId, { productId: newer.id })).toMatchObject({ status: 404, body: { error: 'Product not found' } });
    expect(await landing()).toBe(`/portal?public_key=${product.public_key}`);

    const unlicensed = await body(tenant.post('/api/customers', { email: uniqueEmail('lead') }), 201);
    expect(await preview(tenant, unlicensed.id)).toMatchObject({ status: 400, body: { error: NO_PRODUCT } });
    const chosen = await body(preview(tenant, unlicensed.id, { productId: product.id }), 201);
    const { page } = await openPreview(chosen.url);
    expect(page.text).toContain(banner(unlicensed.email));
    expect(page.text).toContain('No licenses.');
  });

  it("is 404 for an unknown customer, another vendor's customer or product, and 400 while the portal is off, writing nothing", async () => {
    const { tenant, product, customerId } = await vendorWithCustomer();
    const other = await vendorWithCustomer();
    expect(await preview(tenant, 'cus_nothing0000000000000000')).toMatchObject({ status: 404, body: { error: 'Customer not found' } });
    expect(await preview(tenant, other.customerId)).toMatchObject({ status: 404, body: { error: 'Customer not found' } });
    expect(await preview(tenant, customerId, { productId: other.product.id })).toMatchObject({ status: 404, body: { error: 'Product not found' } });
    expect(await preview(tenant, customerId, { productId: 'prd_x' })).toMatchObject({ status: 404, body: { error: 'Product not found' } });
    expect((await preview(tenant, customerId, { productId: 7 })).status).toBe(400);
    expect((await preview(tenant, customerId, { product: product.id })).status).toBe(400);

    await body(tenant.put('/api/portal-settings', { enabled: false }));
    expect(await preview(tenant, customerId)).toMatchObject({ status: 400, body: { error: PORTAL_OFF } });
    expect(await preview(tenant, customerId, { productId: product.id })).toMatchObject({ status: 400, body: { error: PORTAL_OFF } });
    expect((await body(tenant.get('/api/audit-log?action=customer.portalPreview'))).items).toEqual([]);
  });

  it("leaves an audit entry naming the customer, with the e-mail sealed as the customer's personal data", async () => {
    const { tenant, email, customerId } = await vendorWithCustomer();
    await body(preview(tenant, customerId), 201);
    const [entry] = (await body(tenant.get('/api/audit-log?action=customer.portalPreview'))).items;
    expect(entry).toMatchObject({ actor: { type: 'user', id: tenant.userId }, target: { type: 'portalSignIn', id: customerId } });
    expect(entry.changes).toMatchObject({ email: [null, email], preview: [null, true], signInHash: [null, '***'] });
    await body(tenant.post(`/api/customers/${customerId}/erase`));
    const [erased] = (await body(tenant.get(`/api/audit-log?action=customer.portalPreview`))).items;
    expect(erased.changes.email).toEqual([null, '[erased]']);
  });
});

describe('"View as customer": who may (issue 51)', () => {
  it('is open to every role that reads customers, a viewer and an API key included; not to a stranger', async () => {
    const { tenant, email, customerId } = await vendorWithCustomer();
    const [viewer, support] = await Promise.all([joinedMember(tenant, 'viewer', tenant.userId), joinedMember(tenant, 'support', tenant.userId)]);
    const key = await body(tenant.post('/api/api-keys', { name: 'Viewer key', role: 'viewer' }), 201);
    const byKey = Object.assign(new Client(), { bearer: key.key as string });
    for (const caller of [viewer, support, byKey]) {
      const made = await body(preview(caller, customerId), 201);
      expect((await openPreview(made.url)).page.text).toContain(banner(email));
    }
    expect((await preview(new Client(), customerId)).status).toBe(401);
    expect((await preview(await newTenant(), customerId)).status).toBe(404);
  }, 60_000);
});
