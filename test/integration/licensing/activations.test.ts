import { describe, expect, it } from 'vitest';
import { newTenant } from '../../support/client.js';
import { eventually, licensedProduct, newLicense, plugin } from '../../support/licensing-fixtures.js';
import { localData } from '../../support/table.js';

const activate = (licenseKey: string, domain: string) =>
  plugin().post('/v1/licenses/activate', { license_key: licenseKey, domain }, { origin: null });
const validate = (licenseKey: string, domain?: string) =>
  plugin().post('/v1/licenses/validate', { license_key: licenseKey, domain }, { origin: null });

// Seats are taken by production sites: `.example.com`, where `.example` would be a staging site (which takes no seat).
describe('activation concurrency', () => {
  it('gives 20 concurrent activations of different domains on 3 seats exactly 3 seats', async () => {
    const { license } = await licensedProduct({ seats: 3 });
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => activate(license.licenseKey, `site-${i}.example.com`)));
    const won = results.filter((r) => r.status === 200);
    expect(won).toHaveLength(3);
    for (const [i, lost] of results.entries()) {
      if (lost.status === 200) continue;
      expect([lost.status, lost.body]).toEqual([400, { error: 'License seat limit reached', license_key: license.licenseKey, domain: `site-${i}.example.com` }]);
    }
    expect((await validate(license.licenseKey)).body.license.activatedCount).toBe(3);
  });

  it('gives 10 concurrent activations of different staging sites exactly the 3 staging places, and no seat', async () => {
    const { license } = await licensedProduct({ seats: 1 });
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => activate(license.licenseKey, `site-${i}.test`)));
    expect(results.filter((r) => r.status === 200).map((r) => r.body.environment)).toEqual(['staging', 'staging', 'staging']);
    for (const [i, lost] of results.entries()) {
      if (lost.status === 200) continue;
      expect([lost.status, lost.body]).toEqual([400, { error: 'Staging activation limit reached', license_key: license.licenseKey, domain: `site-${i}.test` }]);
    }
    expect((await validate(license.licenseKey)).body.license).toMatchObject({ seats: 1, activatedCount: 0, stagingCount: 3 });
  });

  it('gives 10 concurrent activations of one domain one activation', async () => {
    const { tenant, license } = await licensedProduct({ seats: 5 });
    const results = await Promise.all(Array.from({ length: 10 }, () => activate(license.licenseKey, 'same.example.com')));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(new Set(results.map((r) => r.body.activation_id)).size).toBe(1);
    expect((await validate(license.licenseKey)).body.license.activatedCount).toBe(1);
    const listed = await eventually(
      () => tenant.get(`/api/activations?license_id=${license.id}`),
      (r) => r.body.pagination?.total >= 1,
    );
    expect(listed.body.pagination.total).toBe(1);
  });
});

describe('management activations', () => {
  it('lists activations with license and product, filters by license and status, and counts them', async () => {
    const { tenant, product, license } = await licensedProduct({ seats: 5 });
    const other = await newLicense(tenant, product.id, { customerEmail: 'other@example.com' });
    const a = (await activate(license.licenseKey, 'a.example')).body.activation_id;
    await activate(license.licenseKey, 'b.example');
    await activate(other.licenseKey, 'c.example');
    await plugin().post('/v1/licenses/deactivate', { license_key: license.licenseKey, domain: 'b.example' }, { origin: null });

    const all = await eventually(() => tenant.get('/api/activations'), (r) => r.body.items?.length === 3);
    expect(all.status).toBe(200);
    expect(all.body.pagination).toEqual({ page: 1, perPage: 20, total: 3, totalPages: 1 });
    const item = all.body.items.find((i: { id: string }) => i.id === a);
    expect(item).toEqual({
      id: a,
      licenseId: license.id,
      domain: 'a.example',
      machine: null,
      name: null,
      platform: null,
      ipAddress: expect.any(String),
      status: 'active',
      // `a.example` matches the default staging pattern `*.example`.
      environment: 'staging',
      activatedAt: expect.any(String),
      deactivatedAt: null,
      lastCheckedAt: null,
      license: { id: license.id, key: license.licenseKey, customerEmail: 'buyer@example.com' },
      product: { id: product.id, name: product.name },
    });

    const active = await eventually(() => tenant.get('/api/activations?status=active'), (r) => r.body.items?.length === 2);
    expect(active.body.pagination.total).toBe(2);
    const deactivated = await eventually(() => tenant.get('/api/activations?status=deactivated'), (r) => r.body.items?.length === 1);
    expect(deactivated.body.items[0]).toMatchObject({ domain: 'b.example', status: 'deactivated', deactivatedAt: expect.any(String) });
    expect(deactivated.body.pagination.total).toBe(1);

    const byLicense = await tenant.get(`/api/activations?license_id=${license.id}&status=active`);
    expect(byLicense.body.items.map((i: { domain: string }) => i.domain)).toEqual(['a.example']);
    const paged = await tenant.get('/api/activations?per_page=2&page=2');
    expect(paged.body.items).toHaveLength(1);
    expect(paged.body.pagination).toEqual({ page: 2, perPage: 2, total: 3, totalPages: 2 });

    expect((await tenant.get('/api/activations?status=gone')).status).toBe(400);
    expect((await tenant.get('/api/activations?page=0')).status).toBe(400);
    const stranger = await newTenant();
    expect((await stranger.get(`/api/activations?license_id=${license.id}`)).body.items).toEqual([]);
    expect((await stranger.get('/api/activations')).body.pagination.total).toBe(0);
  });

  it('deactivates by id: activation returned, seat freed, other tenants get 404', async () => {
    const { tenant, license } = await licensedProduct({ seats: 1 });
    const id = (await activate(license.licenseKey, 'solo.example.com')).body.activation_id;
    const stranger = await newTenant();
    const foreign = await stranger.post(`/api/activations/${id}/deactivate`);
    expect([foreign.status, foreign.body]).toEqual([404, { error: 'Activation not found' }]);
    expect((await tenant.post('/api/activations/act_unknown/deactivate')).status).toBe(404);

    const res = await tenant.post(`/api/activations/${id}/deactivate`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, licenseId: license.id, domain: 'solo.example.com', status: 'deactivated', environment: 'production', deactivatedAt: expect.any(String) });
    expect((await validate(license.licenseKey)).body.license.activatedCount).toBe(0);
    expect((await tenant.get(`/api/licenses/${license.id}`)).body.activatedCount).toBe(0);
    // Idempotent: a second call changes nothing and answers the same state.
    const again = await tenant.post(`/api/activations/${id}/deactivate`);
    expect([again.status, again.body.deactivatedAt]).toEqual([200, res.body.deactivatedAt]);
    expect((await activate(license.licenseKey, 'next.example.com')).status).toBe(200);

    // A staging site gives back its staging place, not a seat.
    const staging = (await activate(license.licenseKey, 'localhost')).body.activation_id;
    expect((await tenant.get(`/api/licenses/${license.id}`)).body).toMatchObject({ activatedCount: 1, stagingCount: 1 });
    const ended = await tenant.post(`/api/activations/${staging}/deactivate`);
    expect([ended.status, ended.body.environment, ended.body.status]).toEqual([200, 'staging', 'deactivated']);
    expect((await tenant.get(`/api/licenses/${license.id}`)).body).toMatchObject({ activatedCount: 1, stagingCount: 0 });
  });

  it('records a check on the domain item alone, shows it in every view and keeps it through deactivation and revoke', async () => {
    const { tenant, license } = await licensedProduct({ seats: 3 });
    const data = localData();
    const [kept, revoked] = ['kept.example', 'revoked.example'];
    const ids = [(await activate(license.licenseKey, kept)).body.activation_id, (await activate(license.licenseKey, revoked)).body.activation_id];
    // The activation items as stored, with their index keys (gsi1–3), before any check.
    // `data: 'raw'` answers DynamoDB's own response, which ElectroDB's types do not describe.
    const stored = async (id: string) =>
      ((await data.entities.activation.get({ activationId: id }).go({ consistent: true, data: 'raw' })).data as unknown as { Item: object }).Item;
    const before = await Promise.all(ids.map(stored));
    expect(before[0]).toMatchObject({ gsi1pk: expect.any(String), gsi2pk: expect.any(String), gsi3pk: expect.any(String) });

    for (const domain of [kept, revoked]) expect((await validate(license.licenseKey, `https://${domain}/wp-admin`)).body.valid).toBe(true);
    const hold = async (domain: string) =>
      (await data.entities.activeDomain.get({ licenseId: license.id, domain }).go({ consistent: true })).data!;
    const checked = await hold(kept);
    expect(checked).toMatchObject({ activationId: ids[0], lastCheckedAt: expect.any(String), lastIpAddress: expect.any(String) });
    expect(await Promise.all(ids.map(stored))).toEqual(before);

    const lastChecks = (items: { id: string; lastCheckedAt: string | null }[]) => items.map((a) => [a.id, a.lastCheckedAt]);
    // Newest first, as every view lists them.
    const expected = [[ids[1], (await hold(revoked)).lastCheckedAt], [ids[0], checked.lastCheckedAt]];
    expect(lastChecks((await tenant.get(`/api/licenses/${license.id}`)).body.activations)).toEqual(expected);
    const listed = await eventually(() => tenant.get(`/api/activations?license_id=${license.id}`), (r) => r.body.items?.length === 2);
    expect(lastChecks(listed.body.items)).toEqual(expected);
    const tenantWide = await eventually(() => tenant.get('/api/activations'), (r) => r.body.items?.length === 2);
    expect(lastChecks(tenantWide.body.items)).toEqual(expected);

    // Deactivation (edge) and revoke copy the last check onto the activation before its domain item goes.
    await plugin().post('/v1/licenses/deactivate', { license_key: license.licenseKey, domain: kept }, { origin: null });
    expect((await tenant.post(`/api/licenses/${license.id}/revoke`)).status).toBe(200);
    const ended = (await tenant.get(`/api/licenses/${license.id}`)).body.activations;
    expect(ended.map((a: { status: string }) => a.status)).toEqual(['deactivated', 'deactivated']);
    expect(lastChecks(ended)).toEqual(expected);
  });

  it('deactivates every activation when the license is revoked', async () => {
    const { tenant, license } = await licensedProduct({ seats: 3 });
    await activate(license.licenseKey, 'one.example.com');
    // A staging site: revoke frees its place too.
    await activate(license.licenseKey, 'two.example');
    expect((await tenant.get(`/api/licenses/${license.id}`)).body).toMatchObject({ activatedCount: 1, stagingCount: 1 });
    const revoked = await tenant.post(`/api/licenses/${license.id}/revoke`);
    expect([revoked.status, revoked.body.activatedCount, revoked.body.stagingCount]).toEqual([200, 0, 0]);
    expect((await tenant.get(`/api/licenses/${license.id}`)).body).toMatchObject({ activatedCount: 0, stagingCount: 0 });
    const listed = await tenant.get(`/api/activations?license_id=${license.id}`);
    expect(listed.body.items.map((i: { status: string }) => i.status)).toEqual(['deactivated', 'deactivated']);
    expect((await validate(license.licenseKey)).body).toEqual({ valid: false, error: 'License has been revoked', license_key: license.licenseKey });
  });
});
