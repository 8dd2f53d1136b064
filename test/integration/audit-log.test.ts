import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createManagementDeps, managementRoutes } from '../../functions/management/app.js';
import { ALL_CONFIG_SECTIONS, loadConfig } from '../../shared/config.js';
import { newTenant, uniqueEmail, type Response } from '../support/client.js';
import { stripeTestKey } from '../support/fake-stripe.js';
import { importFixture } from '../support/imports.js';
import { eventually, newLicense, newProduct, newRelease, zipBytes } from '../support/licensing-fixtures.js';
import { invitationToken, verifiedUser } from '../support/team.js';
import { localData } from '../support/table.js';

type Owner = Awaited<ReturnType<typeof newTenant>>;
/** Sets up what the route needs (its own entries are not counted), then answers the request that makes the change. */
type WriteCase = { action: string; run: (owner: Owner) => Promise<() => Promise<Response>> };

const routes = managementRoutes(createManagementDeps(loadConfig(process.env, ALL_CONFIG_SECTIONS)));
const label = (route: { method: string; path: string }) => `${route.method} ${route.path}`;
const auditedWrites = routes.filter((r) => r.method !== 'GET' && r.input?.audit).map(label);

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

/** Every write route of the management API, and the one audit entry it must leave. */
const WRITES: Record<string, WriteCase> = {
  'PUT /api/auth/me': { action: 'user.update', run: async (o) => () => o.put('/api/auth/me', { name: 'Renamed' }) },
  'POST /api/auth/change-password': {
    action: 'user.changePassword',
    run: async (o) => () => o.post('/api/auth/change-password', { currentPassword: o.password, newPassword: (o.password = `${o.password}!`) }),
  },
  'POST /api/api-keys': { action: 'apiKey.create', run: async (o) => () => o.post('/api/api-keys', { name: 'k' }) },
  'DELETE /api/api-keys/{id}': { action: 'apiKey.delete', run: async (o) => { const k = (await o.post('/api/api-keys', { name: 'k' })).body; return () => o.delete(`/api/api-keys/${k.id}`); } },
  'POST /api/activations/{id}/deactivate': {
    action: 'activation.deactivate',
    run: async (o) => {
      const license = await licensed(o);
      const activated = await o.post('/v1/licenses/activate', { license_key: license.licenseKey, domain: 'audit.example.com' }, { origin: null });
      expect(activated.status, activated.text).toBeLessThan(300);
      const [activation] = (await o.get(`/api/activations?license_id=${license.id}`)).body.items;
      return () => o.post(`/api/activations/${activation.id}/deactivate`);
    },
  },
  'POST /api/products': { action: 'product.create', run: async (o) => () => o.post('/api/products', { name: `Audit ${Math.random()}`, productType: 'plugin' }) },
  'PUT /api/products/{id}': { action: 'product.update', run: async (o) => { const p = await product(o); return () => o.put(`/api/products/${p.id}`, { description: 'x' }); } },
  'DELETE /api/products/{id}': { action: 'product.delete', run: async (o) => { const p = await product(o); return () => o.delete(`/api/products/${p.id}`); } },
  'POST /api/products/{id}/regenerate-public-key': { action: 'product.regeneratePublicKey', run: async (o) => { const p = await product(o); return () => o.post(`/api/products/${p.id}/regenerate-public-key`); } },
  'POST /api/products/{id}/signing-key/rotate': { action: 'product.rotateSigningKey', run: async (o) => { const p = await product(o); return () => o.post(`/api/products/${p.id}/signing-key/rotate`); } },
  'POST /api/licenses': { action: 'license.create', run: async (o) => { const p = await product(o); return () => o.post('/api/licenses', { productId: p.id, customerEmail: uniqueEmail('buyer') }); } },
  'PUT /api/licenses/{id}': { action: 'license.update', run: async (o) => { const l = await licensed(o); return () => o.put(`/api/licenses/${l.id}`, { seats: 4 }); } },
  'DELETE /api/licenses/{id}': { action: 'license.delete', run: async (o) => { const l = await licensed(o); return () => o.delete(`/api/licenses/${l.id}`); } },
  'POST /api/licenses/{id}/revoke': { action: 'license.revoke', run: async (o) => { const l = await licensed(o); return () => o.post(`/api/licenses/${l.id}/revoke`); } },
  'POST /api/licenses/{id}/regenerate': { action: 'license.regenerate', run: async (o) => { const l = await licensed(o); return () => o.post(`/api/licenses/${l.id}/regenerate`); } },
  'POST /api/customers': { action: 'customer.create', run: async (o) => () => o.post('/api/customers', { email: uniqueEmail('cus') }) },
  'PUT /api/customers/{id}': { action: 'customer.update', run: async (o) => { const c = await customer(o); return () => o.put(`/api/customers/${c.id}`, { company: 'Acme' }); } },
  'DELETE /api/customers/{id}': { action: 'customer.delete', run: async (o) => { const c = await customer(o); return () => o.delete(`/api/customers/${c.id}`); } },
  'POST /api/customers/{id}/erase': { action: 'customer.erase', run: async (o) => { const c = await customer(o); return () => o.post(`/api/customers/${c.id}/erase`); } },
  'POST /api/webhooks': { action: 'webhook.create', run: async (o) => () => o.post('/api/webhooks', { name: 'Orders', url: 'http://127.0.0.1:9/h', events: ['license.created'] }) },
  'PUT /api/webhooks/{id}': { action: 'webhook.update', run: async (o) => { const w = await webhook(o); return () => o.put(`/api/webhooks/${w.id}`, { name: 'Renamed' }); } },
  'DELETE /api/webhooks/{id}': { action: 'webhook.delete', run: async (o) => { const w = await webhook(o); return () => o.delete(`/api/webhooks/${w.id}`); } },
  'POST /api/webhooks/{id}/regenerate-secret': { action: 'webhook.regenerateSecret', run: async (o) => { const w = await webhook(o); return () => o.post(`/api/webhooks/${w.id}/regenerate-secret`); } },
  'POST /api/webhooks/{id}/test': { action: 'webhook.test', run: async (o) => { const w = await webhook(o); return () => o.post(`/api/webhooks/${w.id}/test`); } },
  'POST /api/webhooks/{id}/deliveries/{deliveryId}/redeliver': {
    action: 'webhook.redeliver',
    run: async (o) => {
      const w = await webhook(o);
      await licensed(o);
      const [delivery] = await eventually(
        async () => (await o.get(`/api/webhooks/${w.id}/deliveries`)).body.items,
        (items) => items?.length > 0,
      );
      return () => o.post(`/api/webhooks/${w.id}/deliveries/${delivery.id}/redeliver`);
    },
  },
  'POST /api/products/{id}/plans': { action: 'plan.create', run: async (o) => { const p = await product(o); return () => o.post(`/api/products/${p.id}/plans`, { name: 'Solo', billingCycle: 'lifetime', price: 0, currency: 'EUR' }); } },
  'PUT /api/products/{id}/plans/{planId}': { action: 'plan.update', run: async (o) => { const p = await plan(o); return () => o.put(`/api/products/${p.productId}/plans/${p.planId}`, { price: 5 }); } },
  'DELETE /api/products/{id}/plans/{planId}': { action: 'plan.delete', run: async (o) => { const p = await plan(o); return () => o.delete(`/api/products/${p.productId}/plans/${p.planId}`); } },
  'PUT /api/payment-provider': { action: 'paymentProvider.connect', run: async (o) => () => o.put('/api/payment-provider', { provider: 'stripe', secretKey: stripeTestKey(), webhookSecret }) },
  'DELETE /api/payment-provider': {
    action: 'paymentProvider.disconnect',
    run: async (o) => {
      await o.put('/api/payment-provider', { provider: 'stripe', secretKey: stripeTestKey(), webhookSecret });
      return () => o.delete('/api/payment-provider');
    },
  },
  'POST /api/products/{id}/releases': {
    action: 'release.create',
    run: async (o) => {
      const p = await product(o);
      const form = new FormData();
      form.set('file', new Blob([new Uint8Array(zipBytes())], { type: 'application/zip' }), 'p.zip');
      const upload = await o.request('POST', `/api/products/${p.id}/releases/upload`, { rawBody: form });
      return () => o.post(`/api/products/${p.id}/releases`, { ...upload.body, version: '1.0.0' });
    },
  },
  'POST /api/products/{id}/releases/upload': {
    action: 'release.upload',
    run: async (o) => {
      const p = await product(o);
      const form = new FormData();
      form.set('file', new Blob([new Uint8Array(zipBytes())], { type: 'application/zip' }), 'p.zip');
      return () => o.request('POST', `/api/products/${p.id}/releases/upload`, { rawBody: form });
    },
  },
  'PUT /api/products/{id}/releases/{releaseId}': { action: 'release.update', run: async (o) => { const p = await product(o); const r = await newRelease(o, p.id, { version: '1.0.0' }); return () => o.put(`/api/products/${p.id}/releases/${r.id}`, { releaseNotes: 'x' }); } },
  'DELETE /api/products/{id}/releases/{releaseId}': { action: 'release.delete', run: async (o) => { const p = await product(o); const r = await newRelease(o, p.id, { version: '1.0.0' }); return () => o.delete(`/api/products/${p.id}/releases/${r.id}`); } },
  'POST /api/exports': { action: 'export.create', run: async (o) => () => o.post('/api/exports', { format: 'jsonl' }) },
  'POST /api/imports': {
    action: 'import.create',
    run: async (o) => {
      const p = await product(o);
      return () => o.request('POST', `/api/imports?productId=${p.id}&format=csv&dryRun=true`, { rawBody: importFixture('csv.csv'), headers: { 'content-type': 'text/csv' } });
    },
  },
  'POST /api/team/invitations': { action: 'invitation.create', run: async (o) => () => o.post('/api/team/invitations', { email: uniqueEmail('inv'), role: 'viewer' }) },
  'DELETE /api/team/invitations/{id}': { action: 'invitation.delete', run: async (o) => { const i = (await o.post('/api/team/invitations', { email: uniqueEmail('inv'), role: 'viewer' })).body; return () => o.delete(`/api/team/invitations/${i.id}`); } },
  'POST /api/team/invitations/{token}/accept': {
    action: 'invitation.accept',
    run: async (o) => {
      const member = await verifiedUser();
      await o.post('/api/team/invitations', { email: member.email, role: 'viewer' });
      const token = await invitationToken(member.email);
      return () => member.post(`/api/team/invitations/${token}/accept`);
    },
  },
  'PUT /api/team/members/{userId}': {
    action: 'member.update',
    run: async (o) => {
      const member = await verifiedUser();
      await o.post('/api/team/invitations', { email: member.email, role: 'viewer' });
      await member.post(`/api/team/invitations/${await invitationToken(member.email)}/accept`);
      return () => o.put(`/api/team/members/${member.userId}`, { role: 'support' });
    },
  },
  'DELETE /api/team/members/{userId}': {
    action: 'member.remove',
    run: async (o) => {
      const member = await verifiedUser();
      await o.post('/api/team/invitations', { email: member.email, role: 'viewer' });
      await member.post(`/api/team/invitations/${await invitationToken(member.email)}/accept`);
      return () => o.delete(`/api/team/members/${member.userId}`);
    },
  },
};

/** Updates whose write is a transaction of their target, so their entry holds the fields' before and after. */
const WITH_CHANGES = new Set([
  'PUT /api/licenses/{id}', 'PUT /api/customers/{id}', 'PUT /api/products/{id}/plans/{planId}', 'PUT /api/products/{id}/releases/{releaseId}',
  'PUT /api/team/members/{userId}', 'POST /api/licenses/{id}/revoke', 'POST /api/licenses', 'POST /api/customers',
  'PUT /api/products/{id}', 'PUT /api/webhooks/{id}', 'PUT /api/payment-provider', 'PUT /api/auth/me', 'POST /api/webhooks',
]);

describe('the audit log (DECISIONS §17)', () => {
  let owner: Owner;
  beforeAll(async () => {
    owner = await newTenant();
  });
  const total = async () => (await owner.get('/api/audit-log?per_page=1')).body.pagination.total as number;

  it('knows every write route: each declares its entry, and this table covers each', () => {
    const undeclared = routes.filter((r) => r.method !== 'GET' && r.input?.permission && r.input.audit === undefined).map(label);
    expect(undeclared, 'a write route must declare its audit entry (or `audit: false`)').toEqual([]);
    expect(Object.keys(WRITES).sort()).toEqual([...auditedWrites].sort());
  });

  it.each(auditedWrites)('%s leaves exactly one entry, with its changes', async (route) => {
    const { action, run } = WRITES[route]!;
    const act = await run(owner);
    const before = await total();
    const res = await act();
    expect(res.status, res.text).toBeLessThan(300);
    expect(await total()).toBe(before + 1);
    const [entry] = (await owner.get('/api/audit-log?per_page=1')).body.items;
    // Accepting is the invited user's doing, in the team's log.
    const actor = route.endsWith('/accept') ? { type: 'user' } : { type: 'user', id: owner.userId, email: owner.email };
    expect(entry).toMatchObject({ action, actor, target: { id: expect.any(String) } });
    if (WITH_CHANGES.has(route)) expect(Object.keys(entry.changes).length, JSON.stringify(entry)).toBeGreaterThan(0);
  });

  it('filters, and shows an update with its before and after; secrets as ***', async () => {
    const license = await licensed(owner);
    await owner.put(`/api/licenses/${license.id}`, { seats: 7 });
    const page = (await owner.get(`/api/audit-log?action=license.update&target_id=${license.id}`)).body;
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({ target: { type: 'license', id: license.id }, changes: { seats: [license.seats, 7] }, ip: expect.any(String) });
    const secret = (await owner.get('/api/audit-log?action=paymentProvider.connect')).body.items[0];
    expect(JSON.stringify(secret.changes)).not.toMatch(/sk_test/);
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
    expect((await tenant.get('/api/audit-log/verify')).body).toEqual({ ok: false, brokenAt: victim.id });
  }, 120_000);

  it('records an import\'s changes as the system\'s', async () => {
    const tenant = await newTenant();
    const p = await newProduct(tenant);
    const started = await tenant.request('POST', `/api/imports?productId=${p.id}&format=csv`, { rawBody: importFixture('csv.csv'), headers: { 'content-type': 'text/csv' } });
    expect(started.status, started.text).toBe(202);
    const [entry] = await eventually(
      async () => (await tenant.get('/api/audit-log?action=import.complete')).body.items,
      (items) => items?.length === 1,
      30_000,
    );
    expect(entry).toMatchObject({ actor: { type: 'system', id: 'import' }, target: { type: 'importJob', id: started.body.id }, changes: { status: ['running', 'done'] } });
  }, 60_000);

  it('is for owners and admins only', async () => {
    const viewer = await verifiedUser();
    await owner.post('/api/team/invitations', { email: viewer.email, role: 'developer' });
    await viewer.post(`/api/team/invitations/${await invitationToken(viewer.email)}/accept`);
    await viewer.post('/api/auth/switch-tenant', { tenantId: owner.userId });
    expect(await viewer.get('/api/audit-log')).toMatchObject({ status: 403, body: { error: 'Your role does not allow this' } });
  });
});
