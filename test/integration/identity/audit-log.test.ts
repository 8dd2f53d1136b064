import { describe, expect, inject, it } from 'vitest';
import { createManagementDeps, managementRoutes } from '../../../functions/management/app.js';
import { withAudit } from '../../../shared/identity/audit/audit-transaction.js';
import { ALL_CONFIG_SECTIONS, loadConfig } from '../../../shared/platform/config.js';
import { EXPORT_NOT_QUEUED, requestExport } from '../../../shared/portability/exports/export-jobs.js';
import { systemClock } from '../../../shared/platform/runtime.js';
import { newTenant, uniqueEmail, type Response } from '../../support/client.js';
import { fakeStripeClient, stripeTestKey } from '../../support/fake-stripe.js';
import { stripeEvent } from '../../support/stripe-events.js';
import { stripeId } from '../../support/stripe-objects.js';
import { created, paidCheckout, shop } from '../../support/stripe-shop.js';
import { importFixture } from '../../support/imports.js';
import { eventually, newLicense, newProduct, newRelease, zipBytes } from '../../support/licensing-fixtures.js';
import { invitationToken, verifiedUser } from '../../support/team.js';
import { desktopBuild, uploadFile } from '../../support/desktop-fixtures.js';
import { localData } from '../../support/table.js';
import { createStorageClient } from '../../../shared/platform/s3/storage-client.js';

type Owner = Awaited<ReturnType<typeof newTenant>>;
/**
 * The request that makes the change, once what it needs is set up (whose own entries are not counted): `log`, the
 * tenant whose log holds the entry (the owner's, unless the case made its own shop); `targetId`, the entry's target
 * (default: the id the answer names); `changed`, a field the entry's `changes` must hold.
 */
type Act = { request: () => Promise<Response>; targetId?: string; changed?: string; log?: Owner };
type WriteCase = { action: string; run: (owner: Owner) => Promise<Act> };

const config = loadConfig(process.env, ALL_CONFIG_SECTIONS);
const routes = managementRoutes(createManagementDeps(config));
const label = (route: { method: string; path: string }) => `${route.method} ${route.path}`;
const auditedWrites = routes.filter((r) => r.method !== 'GET' && r.input?.audit);
const declaredTarget = new Map(auditedWrites.map((r) => [label(r), (r.input!.audit as { target: string }).target]));

const product = (owner: Owner) => newProduct(owner);
const licensed = async (owner: Owner) => newLicense(owner, (await product(owner)).id);
const customer = async (owner: Owner) => (await owner.post('/api/customers', { email: uniqueEmail('cus') })).body;
const plan = async (owner: Owner) => {
  const p = await product(owner);
  const made = await owner.post(`/api/products/${p.id}/plans`, { name: 'Solo', billingCycle: 'lifetime', price: 0, currency: 'EUR' });
  return { productId: p.id, planId: made.body.id as string };
};
const webhook = async (owner: Owner) => (await owner.post('/api/webhooks', { name: 'Orders', url: 'http://127.0.0.1:9/hooks', events: ['license.created'] })).body;
const webhookSecret = 'whsec_dGVzdHNlY3JldHRlc3RzZWNyZXQ=';
const connectStripe = async (owner: Owner) => {
  const connected = await owner.put('/api/payment-provider', { provider: 'stripe', secretKey: stripeTestKey(), webhookSecret });
  expect(connected.status, connected.text).toBe(200);
};
const coupon = (owner: Owner) => owner.post('/api/coupons', { code: stripeId('C').replace('_', '-').slice(0, 20), percentOff: 10, duration: 'once' });
const uploadForm = () => {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(zipBytes())], { type: 'application/zip' }), 'p.zip');
  return form;
};
/** Invited while their address is being verified: the two e-mails travel together. */
const invitedUser = async (o: Owner) => {
  const email = uniqueEmail('member');
  const [joining, invited] = await Promise.all([verifiedUser(email), o.post('/api/team/invitations', { email, role: 'viewer' })]);
  expect(invited.status, invited.text).toBe(201);
  return joining;
};
const member = async (o: Owner) => {
  const joined = await invitedUser(o);
  const accepted = await joined.post(`/api/team/invitations/${await invitationToken(joined.email)}/accept`);
  expect(accepted.status, accepted.text).toBe(200);
  return joined;
};

/** A shop's yearly subscription, and the request that downgrades it (recorded as pending until the period ends). */
const downgradable = async () => {
  const s = await shop();
  const cheaper = await created(s.tenant.post(`/api/products/${s.product.id}/plans`, { name: 'Solo', billingCycle: 'yearly', price: 19, currency: 'usd', siteLimit: 1 }));
  const { session } = await paidCheckout(s, 'yearly');
  expect((await s.send(stripeEvent('checkout.session.completed', session))).status).toBe(200);
  const [license] = (await s.tenant.get('/api/licenses')).body.items;
  const [subscription] = (await s.tenant.get(`/api/customers/${license.customerId}`)).body.subscriptions;
  const subscriptionId = subscription.id as string;
  return { s, subscriptionId, planId: cheaper.id as string, request: () => s.tenant.post(`/api/subscriptions/${subscriptionId}/change-plan`, { planId: cheaper.id }) };
};

/** Every write route of the management API, and the one audit entry it must leave; the slow setups first, to overlap the rest. */
const WRITES: Record<string, WriteCase> = {
  'POST /api/team/invitations/{token}/accept': {
    action: 'invitation.accept',
    run: async (o) => {
      const joining = await invitedUser(o);
      const token = await invitationToken(joining.email);
      return { request: () => joining.post(`/api/team/invitations/${token}/accept`), targetId: joining.userId, changed: 'role' };
    },
  },
  'PUT /api/team/members/{userId}': { action: 'member.update', run: async (o) => { const m = await member(o); return { request: () => o.put(`/api/team/members/${m.userId}`, { role: 'support' }), targetId: m.userId, changed: 'role' }; } },
  'DELETE /api/team/members/{userId}': { action: 'member.remove', run: async (o) => { const m = await member(o); return { request: () => o.delete(`/api/team/members/${m.userId}`), targetId: m.userId, changed: 'role' }; } },
  'POST /api/webhooks/{id}/deliveries/{deliveryId}/redeliver': {
    action: 'webhook.redeliver',
    run: async (o) => {
      const w = await webhook(o);
      await licensed(o);
      const [delivery] = await eventually(
        async () => (await o.get(`/api/webhooks/${w.id}/deliveries`)).body.items,
        (items) => items?.length > 0,
        20_000,
      );
      expect(delivery, 'the license.created delivery to redeliver').toBeDefined();
      return { request: () => o.post(`/api/webhooks/${w.id}/deliveries/${delivery.id}/redeliver`), changed: 'payload' };
    },
  },
  'POST /api/subscriptions/{id}/change-plan': {
    action: 'subscription.changePlan',
    run: async () => {
      const { s, subscriptionId, request } = await downgradable();
      return { request, targetId: subscriptionId, changed: 'pendingPlanId', log: s.tenant };
    },
  },
  'POST /api/activations/{id}/deactivate': {
    action: 'activation.deactivate',
    run: async (o) => {
      const license = await licensed(o);
      const activated = await o.post('/v1/licenses/activate', { license_key: license.licenseKey, domain: 'audit.example.com' }, { origin: null });
      expect(activated.status, activated.text).toBeLessThan(300);
      const [activation] = (await o.get(`/api/activations?license_id=${license.id}`)).body.items;
      return { request: () => o.post(`/api/activations/${activation.id}/deactivate`), targetId: activation.id, changed: 'status' };
    },
  },
  'PUT /api/auth/me': { action: 'user.update', run: async (o) => ({ request: () => o.put('/api/auth/me', { name: 'Renamed' }), targetId: o.userId, changed: 'name' }) },
  'POST /api/auth/change-password': {
    action: 'user.changePassword',
    run: async (o) => ({
      request: () => o.post('/api/auth/change-password', { currentPassword: o.password, newPassword: `${o.password}!` }),
      targetId: o.userId,
      changed: 'passwordHash',
    }),
  },
  'POST /api/api-keys': { action: 'apiKey.create', run: async (o) => ({ request: () => o.post('/api/api-keys', { name: 'k' }) }) },
  'DELETE /api/api-keys/{id}': { action: 'apiKey.delete', run: async (o) => { const k = (await o.post('/api/api-keys', { name: 'k' })).body; return { request: () => o.delete(`/api/api-keys/${k.id}`), targetId: k.id }; } },
  'POST /api/products': { action: 'product.create', run: async (o) => ({ request: () => o.post('/api/products', { name: `Audit ${Math.random()}`, productType: 'plugin' }) }) },
  'PUT /api/products/{id}': { action: 'product.update', run: async (o) => { const p = await product(o); return { request: () => o.put(`/api/products/${p.id}`, { description: 'x' }), targetId: p.id, changed: 'description' }; } },
  'DELETE /api/products/{id}': { action: 'product.delete', run: async (o) => { const p = await product(o); return { request: () => o.delete(`/api/products/${p.id}`), targetId: p.id }; } },
  'POST /api/products/{id}/regenerate-public-key': { action: 'product.regeneratePublicKey', run: async (o) => { const p = await product(o); return { request: () => o.post(`/api/products/${p.id}/regenerate-public-key`), targetId: p.id, changed: 'publicKey' }; } },
  'POST /api/products/{id}/signing-key/rotate': { action: 'product.rotateSigningKey', run: async (o) => { const p = await product(o); return { request: () => o.post(`/api/products/${p.id}/signing-key/rotate`), targetId: p.id }; } },
  'POST /api/licenses': { action: 'license.create', run: async (o) => { const p = await product(o); return { request: () => o.post('/api/licenses', { productId: p.id, customerEmail: uniqueEmail('buyer') }), changed: 'licenseKey' }; } },
  'PUT /api/licenses/{id}': { action: 'license.update', run: async (o) => { const l = await licensed(o); return { request: () => o.put(`/api/licenses/${l.id}`, { seats: 4 }), targetId: l.id, changed: 'seats' }; } },
  'DELETE /api/licenses/{id}': { action: 'license.delete', run: async (o) => { const l = await licensed(o); return { request: () => o.delete(`/api/licenses/${l.id}`), targetId: l.id }; } },
  'POST /api/licenses/{id}/transfer': { action: 'license.transfer', run: async (o) => { const l = await licensed(o); return { request: () => o.post(`/api/licenses/${l.id}/transfer`, { email: uniqueEmail('next') }), targetId: l.id, changed: 'customerEmail' }; } },
  'POST /api/licenses/{id}/revoke': { action: 'license.revoke', run: async (o) => { const l = await licensed(o); return { request: () => o.post(`/api/licenses/${l.id}/revoke`), targetId: l.id, changed: 'status' }; } },
  'POST /api/licenses/{id}/regenerate': { action: 'license.regenerate', run: async (o) => { const l = await licensed(o); return { request: () => o.post(`/api/licenses/${l.id}/regenerate`), targetId: l.id }; } },
  'POST /api/customers': { action: 'customer.create', run: async (o) => ({ request: () => o.post('/api/customers', { email: uniqueEmail('cus') }), changed: 'email' }) },
  'PUT /api/customers/{id}': { action: 'customer.update', run: async (o) => { const c = await customer(o); return { request: () => o.put(`/api/customers/${c.id}`, { company: 'Acme' }), targetId: c.id, changed: 'company' }; } },
  'DELETE /api/customers/{id}': { action: 'customer.delete', run: async (o) => { const c = await customer(o); return { request: () => o.delete(`/api/customers/${c.id}`), targetId: c.id }; } },
  'POST /api/customers/{id}/portal-preview': {
    action: 'customer.portalPreview',
    run: async (o) => {
      const [c, p] = await Promise.all([customer(o), product(o), o.put('/api/portal-settings', { enabled: true })]);
      return { request: () => o.post(`/api/customers/${c.id}/portal-preview`, { productId: p.id }), targetId: c.id, changed: 'preview' };
    },
  },
  'POST /api/customers/{id}/erase': { action: 'customer.erase', run: async (o) => { const c = await customer(o); return { request: () => o.post(`/api/customers/${c.id}/erase`), targetId: c.id, changed: 'erasedAt' }; } },
  'POST /api/webhooks': { action: 'webhook.create', run: async (o) => ({ request: () => o.post('/api/webhooks', { name: 'Orders', url: 'http://127.0.0.1:9/h', events: ['license.created'] }), changed: 'url' }) },
  'PUT /api/webhooks/{id}': { action: 'webhook.update', run: async (o) => { const w = await webhook(o); return { request: () => o.put(`/api/webhooks/${w.id}`, { name: 'Renamed' }), targetId: w.id, changed: 'name' }; } },
  'DELETE /api/webhooks/{id}': { action: 'webhook.delete', run: async (o) => { const w = await webhook(o); return { request: () => o.delete(`/api/webhooks/${w.id}`), targetId: w.id }; } },
  'POST /api/webhooks/{id}/regenerate-secret': { action: 'webhook.regenerateSecret', run: async (o) => { const w = await webhook(o); return { request: () => o.post(`/api/webhooks/${w.id}/regenerate-secret`), targetId: w.id }; } },
  'POST /api/products/{id}/plans': { action: 'plan.create', run: async (o) => { const p = await product(o); return { request: () => o.post(`/api/products/${p.id}/plans`, { name: 'Solo', billingCycle: 'lifetime', price: 0, currency: 'EUR' }) }; } },
  'PUT /api/products/{id}/plans/{planId}': { action: 'plan.update', run: async (o) => { const p = await plan(o); return { request: () => o.put(`/api/products/${p.productId}/plans/${p.planId}`, { price: 5 }), targetId: p.planId, changed: 'price' }; } },
  'DELETE /api/products/{id}/plans/{planId}': { action: 'plan.delete', run: async (o) => { const p = await plan(o); return { request: () => o.delete(`/api/products/${p.productId}/plans/${p.planId}`), targetId: p.planId }; } },
  'PUT /api/payment-provider': {
    action: 'paymentProvider.connect',
    run: async (o) => ({ request: () => o.put('/api/payment-provider', { provider: 'stripe', secretKey: stripeTestKey(), webhookSecret }), targetId: o.userId, changed: 'sealedSecretKey' }),
  },
  'PATCH /api/payment-provider': {
    action: 'paymentProvider.update',
    run: async (o) => {
      await connectStripe(o);
      return { request: () => o.patch('/api/payment-provider', { automaticTax: true }), targetId: o.userId, changed: 'automaticTax' };
    },
  },
  'DELETE /api/payment-provider': {
    action: 'paymentProvider.disconnect',
    run: async (o) => {
      await connectStripe(o);
      return { request: () => o.delete('/api/payment-provider'), targetId: o.userId, changed: 'provider' };
    },
  },
  'POST /api/coupons': { action: 'coupon.create', run: async (o) => { await connectStripe(o); return { request: () => coupon(o), changed: 'code' }; } },
  'DELETE /api/coupons/{id}': {
    action: 'coupon.deactivate',
    run: async (o) => {
      await connectStripe(o);
      const made = await coupon(o);
      expect(made.status, made.text).toBe(201);
      return { request: () => o.delete(`/api/coupons/${made.body.id}`), targetId: made.body.id, changed: 'active' };
    },
  },
  'POST /api/products/{id}/releases': {
    action: 'release.create',
    run: async (o) => {
      const p = await product(o);
      const upload = await o.request('POST', `/api/products/${p.id}/releases/upload`, { rawBody: uploadForm() });
      return { request: () => o.post(`/api/products/${p.id}/releases`, { ...upload.body, version: '1.0.0' }), changed: 'version' };
    },
  },
  'PUT /api/products/{id}/releases/{releaseId}': { action: 'release.update', run: async (o) => { const p = await product(o); const r = await newRelease(o, p.id, { version: '1.0.0' }); return { request: () => o.put(`/api/products/${p.id}/releases/${r.id}`, { releaseNotes: 'x' }), targetId: r.id, changed: 'releaseNotes' }; } },
  'POST /api/products/{id}/releases/{releaseId}/files': {
    action: 'release.addFile',
    run: async (o) => {
      const p = await product(o);
      const r = await newRelease(o, p.id, { version: '1.0.0' });
      const build = desktopBuild();
      const filePath = await uploadFile(o, p.id, 'app.deb', build.bytes);
      const body = { platform: 'linux-x64', fileName: 'app.deb', fileSize: build.bytes.length, filePath, sha512: build.sha512 };
      return { request: () => o.post(`/api/products/${p.id}/releases/${r.id}/files`, body), targetId: r.id, changed: 'platformFiles' };
    },
  },
  'DELETE /api/products/{id}/releases/{releaseId}': { action: 'release.delete', run: async (o) => { const p = await product(o); const r = await newRelease(o, p.id, { version: '1.0.0' }); return { request: () => o.delete(`/api/products/${p.id}/releases/${r.id}`), targetId: r.id }; } },
  'POST /api/exports': { action: 'export.create', run: async (o) => ({ request: () => o.post('/api/exports', { format: 'jsonl' }), changed: 'status' }) },
  'POST /api/imports': {
    action: 'import.create',
    run: async (o) => {
      const p = await product(o);
      return {
        request: () => o.request('POST', `/api/imports?productId=${p.id}&format=csv&dryRun=true`, { rawBody: importFixture('csv.csv'), headers: { 'content-type': 'text/csv' } }),
        changed: 'status',
      };
    },
  },
  'PUT /api/account/settings': {
    action: 'accountSettings.update',
    run: async (o) => ({ request: () => o.put('/api/account/settings', { composerVendor: `audit-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}` }), targetId: o.userId, changed: 'composerVendor' }),
  },
  'PUT /api/portal-settings': {
    action: 'portalSettings.update',
    run: async (o) => ({ request: () => o.put('/api/portal-settings', { enabled: true, accentColor: '#0b7285' }), targetId: o.userId, changed: 'enabled' }),
  },
  'POST /api/team/invitations': { action: 'invitation.create', run: async (o) => ({ request: () => o.post('/api/team/invitations', { email: uniqueEmail('inv'), role: 'viewer' }), changed: 'role' }) },
  'DELETE /api/team/invitations/{id}': { action: 'invitation.delete', run: async (o) => { const i = (await o.post('/api/team/invitations', { email: uniqueEmail('inv'), role: 'viewer' })).body; return { request: () => o.delete(`/api/team/invitations/${i.id}`), targetId: i.id }; } },
};

/** The ids of a tenant's entries, newest first (a case's log holds a few dozen at most). */
const entryIds = async (log: Owner) => ((await log.get('/api/audit-log?per_page=100')).body.items as { id: string }[]).map((e) => e.id);

describe('the audit log (DECISIONS §17)', () => {
  it('knows every write route: each declares its entry, and this table covers each', () => {
    const undeclared = routes.filter((r) => r.method !== 'GET' && r.input?.permission && r.input.audit === undefined).map(label);
    expect(undeclared, 'a write route must declare its audit entry (or `audit: false`)').toEqual([]);
    expect(Object.keys(WRITES).sort()).toEqual(auditedWrites.map(label).sort());
  });

  // Each case in a tenant of its own, so the cases run side by side and each log holds only its case's entries.
  it.concurrent.each(Object.keys(WRITES))('%s leaves exactly one entry: its action, target and changes', async (route) => {
    const { action, run } = WRITES[route]!;
    const owner = await newTenant();
    const { request, targetId, changed, log = owner } = await run(owner);
    const before = new Set(await entryIds(log));
    const res = await request();
    expect(res.status, res.text).toBeLessThan(300);
    const added = (await entryIds(log)).filter((id) => !before.has(id));
    expect(added, 'entries the request added').toHaveLength(1);
    const [entry] = (await log.get(`/api/audit-log?per_page=1`)).body.items;
    expect(entry.id).toBe(added[0]);
    // Accepting is the invited user's doing, in the team's log.
    const actor = route.endsWith('/accept') ? { type: 'user' } : { type: 'user', id: log.userId, email: log.email };
    expect(entry).toMatchObject({ action, actor, target: { type: declaredTarget.get(route), id: targetId ?? res.body.id } });
    expect(Object.keys(entry.changes).length, JSON.stringify(entry)).toBeGreaterThan(0);
    if (changed) expect(entry.changes, JSON.stringify(entry)).toHaveProperty(changed);
  }, 60_000);

  it('filters, and shows an update with its before and after; secrets as ***', async () => {
    const owner = await newTenant();
    const license = await licensed(owner);
    await Promise.all([owner.put(`/api/licenses/${license.id}`, { seats: 7 }), connectStripe(owner)]);
    const page = (await owner.get(`/api/audit-log?action=license.update&target_id=${license.id}`)).body;
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({ target: { type: 'license', id: license.id }, changes: { seats: [license.seats, 7] }, ip: expect.any(String) });
    const [connected] = (await owner.get('/api/audit-log?action=paymentProvider.connect')).body.items;
    expect(connected.changes.sealedSecretKey).toEqual([null, '***']);
    expect(JSON.stringify(connected.changes)).not.toMatch(/sk_test/);
  });

  it("never holds secret material, not even a product's sealed private signing keys inside its list of keys (DECISIONS §20)", async () => {
    const owner = await newTenant();
    const p = await newProduct(owner);
    expect((await owner.post(`/api/products/${p.id}/signing-key/rotate`)).status).toBe(200);
    const { data: stored } = await localData().entities.product.get({ productId: p.id }).go();
    const sealed = stored!.signingKeys!.map((key) => key.sealedPrivateKey);
    expect(sealed).toHaveLength(2);
    for (const action of ['product.create', 'product.rotateSigningKey']) {
      const [entry] = (await owner.get(`/api/audit-log?action=${action}&target_id=${p.id}`)).body.items;
      const shown = JSON.stringify(entry.changes);
      for (const secret of sealed) expect(shown, action).not.toContain(secret);
      const [, after] = entry.changes.signingKeys;
      expect(after.map((key: { sealedPrivateKey: string }) => key.sealedPrivateKey), action).toEqual(after.map(() => '***'));
      // What a verifier pins stays readable.
      expect(after.map((key: { publicKey: string }) => key.publicKey), action).toEqual(expect.arrayContaining([stored!.signingKeys![0]!.publicKey]));
    }
  });

  it('says so when entries younger than the 400-day retention are missing before the oldest one kept (DECISIONS §20)', async () => {
    const tenant = await newTenant();
    for (let n = 0; n < 4; n++) expect((await tenant.post('/api/customers', { email: uniqueEmail(`chain${n}`) })).status).toBe(201);
    expect((await tenant.get('/api/audit-log/verify')).body).toEqual({ ok: true, entries: 4 });
    // The two oldest entries deleted from the table, as only someone covering their tracks would: none is 400 days old.
    const data = localData();
    const chain = (await data.entities.auditEntry.query.byTenant({ tenantId: tenant.userId }).go({ pages: 'all', consistent: true })).data.sort((a, b) => a.position! - b.position!);
    for (const entry of chain.slice(0, 2)) await data.entities.auditEntry.delete({ tenantId: tenant.userId, entryId: entry.entryId }).go();
    expect((await tenant.get('/api/audit-log/verify')).body).toEqual({
      ok: false,
      brokenAt: chain[2]!.entryId,
      reason: 'Entries younger than the 400-day retention are missing before the oldest one kept',
    });
  });

  it('leaves no entry for a request that changes nothing (erasing an erased customer)', async () => {
    const owner = await newTenant();
    const c = await customer(owner);
    expect((await owner.post(`/api/customers/${c.id}/erase`)).status).toBe(200);
    const before = await entryIds(owner);
    expect((await owner.post(`/api/customers/${c.id}/erase`)).status).toBe(200);
    expect(await entryIds(owner)).toEqual(before);
  });

  it('keeps a customer\'s personal data sealed, and unreadable once the customer is erased, with the chain intact', async () => {
    const owner = await newTenant();
    const email = uniqueEmail('sealed');
    const { body: c } = await owner.post('/api/customers', { email, lastName: 'Sealedname', metadata: { crm: 'x-991' } });
    const license = await newLicense(owner, (await product(owner)).id, { customerEmail: email });
    const shownBefore = (await owner.get(`/api/audit-log?target_id=${c.id}`)).body.items[0];
    expect(shownBefore.changes).toMatchObject({ email: [null, email.toLowerCase()], lastName: [null, 'Sealedname'], metadata: [null, { crm: 'x-991' }] });
    const licenseEntry = (await owner.get(`/api/audit-log?target_id=${license.id}`)).body.items[0];
    expect(licenseEntry.changes.customerEmail).toEqual([null, email.toLowerCase()]);
    // In the table the values are ciphertext, even before erasure.
    const { data: stored } = await localData().entities.auditEntry.query.byTenant({ tenantId: owner.userId }).go({ pages: 'all' });
    expect(stored.length).toBeGreaterThan(0);
    expect(JSON.stringify(stored)).not.toMatch(/Sealedname|x-991/);
    expect(JSON.stringify(stored).toLowerCase()).not.toContain(email.toLowerCase());

    expect((await owner.post(`/api/customers/${c.id}/erase`)).status).toBe(200);
    const created = (await owner.get(`/api/audit-log?action=customer.create&target_id=${c.id}`)).body.items[0];
    expect(created.changes).toMatchObject({ email: [null, '[erased]'], lastName: [null, '[erased]'], metadata: [null, '[erased]'] });
    expect(created.changes.createdAt).toEqual([null, c.createdAt]);
    expect((await owner.get(`/api/audit-log?target_id=${license.id}`)).body.items[0].changes.customerEmail).toEqual([null, '[erased]']);
    const erased = (await owner.get(`/api/audit-log?action=customer.erase`)).body.items[0];
    expect(erased.changes.lastName).toEqual(['[erased]', null]);
    expect(await owner.get('/api/audit-log/verify').then((r) => r.body)).toEqual({ ok: true, entries: expect.any(Number) });
  });

  it('records a downgrade Stripe refused as written, then taken back', async () => {
    const { s, planId, request } = await downgradable();
    await fakeStripeClient(inject('stripeUrl')).setOutage(s.secretKey, 'subscriptionUpdates');
    const refused = await request();
    expect(refused.status, refused.text).toBe(502);
    const entries = (await s.tenant.get('/api/audit-log?action=subscription.changePlan')).body.items;
    expect(entries.map((entry: { changes: Record<string, unknown> }) => entry.changes.pendingPlanId)).toEqual([[planId, null], [null, planId]]);
  });

  it('keeps an export it could not queue, failed, as its entry records it', async () => {
    const owner = await newTenant();
    const unqueued = { data: localData(), clock: systemClock, config, clients: { s3: createStorageClient(config) }, exportQueue: { send: () => Promise.reject(new Error('queue unreachable')) } };
    const intent = { tenantId: owner.userId, actor: { type: 'user' as const, id: owner.userId }, action: 'export.create', target: { type: 'exportJob', idField: 'exportId' }, now: () => new Date() };
    await expect(withAudit(intent, () => requestExport(unqueued, owner.userId, 'csv'))).rejects.toThrow('queue unreachable');
    const [entry] = (await owner.get('/api/audit-log?action=export.create')).body.items;
    expect((await owner.get(`/api/exports/${entry.target.id}`)).body).toMatchObject({ status: 'failed', error: EXPORT_NOT_QUEUED });
  });

  it('stays a valid chain under 200 concurrent changes, and names an entry edited in the table', async () => {
    const tenant = await newTenant();
    const made = await Promise.all(Array.from({ length: 200 }, (_, i) => tenant.post('/api/customers', { email: `c${i}-${tenant.userId.slice(-6)}@example.com` })));
    expect(made.map((r) => r.status)).toEqual(made.map(() => 201));
    // The stream's fan-out links them into one chain, positions 1 to 200, with no verify asking.
    const data = localData('all', inject('tableName'));
    const positions = await eventually(
      async () => (await data.entities.auditEntry.query.byTenant({ tenantId: tenant.userId }).go({ pages: 'all', consistent: true })).data.map((e) => e.position),
      (linked) => linked.length === 200 && linked.every((position) => position !== undefined),
    );
    expect(new Set(positions)).toEqual(new Set(Array.from({ length: 200 }, (_, i) => i + 1)));
    expect((await tenant.get('/api/audit-log/verify')).body).toEqual({ ok: true, entries: 200 });

    const victim = (await tenant.get('/api/audit-log?per_page=1&page=50')).body.items[0];
    await data.entities.auditEntry.patch({ tenantId: tenant.userId, entryId: victim.id }).set({ action: 'customer.delete' }).go();
    expect((await tenant.get('/api/audit-log/verify')).body).toEqual({ ok: false, brokenAt: victim.id, reason: 'This entry was changed after it was written' });
  }, 120_000);

  it('records an import\'s changes as the system\'s', async () => {
    const tenant = await newTenant();
    const p = await newProduct(tenant);
    // Keys of its own: keys are unique across the deployment, and imports.test.ts imports the csv fixture's.
    const csv = `license_key,customer_email\nAUDIT-${p.id}-1,${uniqueEmail('imported')}\n`;
    const started = await tenant.request('POST', `/api/imports?productId=${p.id}&format=csv`, { rawBody: csv, headers: { 'content-type': 'text/csv' } });
    expect(started.status, started.text).toBe(202);
    const [entry] = await eventually(
      async () => (await tenant.get('/api/audit-log?action=import.complete')).body.items,
      (items) => items?.length === 1,
      30_000,
    );
    expect(entry).toMatchObject({ actor: { type: 'system', id: 'import' }, target: { type: 'importJob', id: started.body.id }, changes: { status: ['running', 'done'] } });
  }, 60_000);

  it("records a Stripe event's change as the system's, once however often Stripe sends it", async () => {
    const s = await shop();
    const { session } = await paidCheckout(s, 'lifetime');
    const event = stripeEvent('checkout.session.completed', session);
    expect((await s.send(event)).status).toBe(200);
    expect((await s.send(event)).status).toBe(200);
    const entries = (await s.tenant.get('/api/audit-log?action=stripe.checkout.session.completed')).body.items;
    expect(entries).toEqual([
      expect.objectContaining({ actor: { type: 'system', id: 'stripe' }, target: { type: 'stripeEvent', id: event.id }, ip: null, userAgent: null }),
    ]);
    expect((await s.tenant.get('/api/licenses')).body.items).toHaveLength(1);
    expect(await s.tenant.get('/api/audit-log/verify').then((r) => r.body)).toEqual({ ok: true, entries: expect.any(Number) });
  });

  it('is for owners and admins only', async () => {
    const owner = await newTenant();
    const viewer = await verifiedUser();
    await owner.post('/api/team/invitations', { email: viewer.email, role: 'developer' });
    await viewer.post(`/api/team/invitations/${await invitationToken(viewer.email)}/accept`);
    await viewer.post('/api/auth/switch-tenant', { tenantId: owner.userId });
    expect(await viewer.get('/api/audit-log')).toMatchObject({ status: 403, body: { error: 'Your role does not allow this' } });
  });
});
