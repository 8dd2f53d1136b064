/** Features (DECISIONS §23): defined on a product, granted by plans, carried by licenses, in signed answers and offline files. */
import { describe, expect, it } from 'vitest';
import { newTenant } from '../../support/client.js';
import { newLicense, newProduct, plugin, type Tenant } from '../../support/licensing-fixtures.js';
import { verifyOfflineLicense, type KnownKey } from '../../support/offline-license-verifier.js';
import { activate, body, changePlan, licenseOf, shop, subscribe, tellRenewal, tellSubscription } from '../../support/plan-shop.js';
import { rawCall, verifyAnswer, type PublicKeyEntry } from '../../support/signature-verifier.js';

const FEATURES = [{ key: 'reports', name: 'Reports' }, { key: 'white-label', name: 'White label' }];

/** A product with two features, a Pro plan granting `reports` and a Basic plan granting none. */
async function tieredProduct(tenant?: Tenant) {
  const owner = tenant ?? (await newTenant());
  const product = await newProduct(owner, { features: FEATURES });
  const plans = `/api/products/${product.id}/plans`;
  const pro = await body(owner.post(plans, { name: 'Pro', billingCycle: 'yearly', price: 99, currency: 'usd', siteLimit: 3, features: ['reports'] }), 201);
  const basic = await body(owner.post(plans, { name: 'Basic', billingCycle: 'yearly', price: 49, currency: 'usd' }), 201);
  return { tenant: owner, product, plans, pro, basic };
}

const post = (path: string, payload: unknown) => rawCall('POST', path, { body: payload });

describe('features', () => {
  it('are defined on the product and granted by plans, with every bad key a 400 naming it and nothing written', async () => {
    const { tenant, product, plans, pro, basic } = await tieredProduct();
    expect((await body(tenant.get(`/api/products/${product.id}`))).features).toEqual(FEATURES);
    expect(pro.features).toEqual(['reports']);
    expect(basic.features).toEqual([]);

    const unknown = await tenant.post(plans, { name: 'Agency', billingCycle: 'yearly', price: 199, currency: 'usd', features: ['reports', 'exports'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe('Unknown feature: exports');
    expect((await body(tenant.get(plans))).items).toHaveLength(2);
    const updated = await tenant.put(`${plans}/${basic.id}`, { features: ['Reports'] });
    expect([updated.status, updated.body.error]).toEqual([400, 'Unknown feature: Reports']);
    expect((await body(tenant.get(`${plans}/${basic.id}`))).features).toEqual([]);

    for (const features of [[{ key: 'Bad Key', name: 'x' }], [{ key: 'a'.repeat(65), name: 'x' }], [{ key: 'ok', name: '' }], [FEATURES[0], FEATURES[0]], 'reports']) {
      const res = await tenant.put(`/api/products/${product.id}`, { features });
      expect(res.status, JSON.stringify(features)).toBe(400);
    }
    // A feature the product drops leaves its plans' answers.
    await body(tenant.put(`/api/products/${product.id}`, { features: [FEATURES[1]] }));
    expect((await body(tenant.get(`${plans}/${pro.id}`))).features).toEqual([]);
  });

  it("a Pro plan's license carries the feature and a Basic one does not, in signed validate, activate and check answers and the offline file", async () => {
    const { tenant, product, pro, basic } = await tieredProduct();
    const proLicense = await newLicense(tenant, product.id, { planId: pro.id, seats: undefined });
    const basicLicense = await newLicense(tenant, product.id, { planId: basic.id, seats: undefined });
    expect((proLicense as any).features).toEqual(['reports']);
    expect((basicLicense as any).features).toEqual([]);
    const keys: PublicKeyEntry[] = (await rawCall('GET', `/public/v1/signing-key?public_key=${product.public_key}`)).json.keys;

    for (const [license, features] of [[proLicense, ['reports']], [basicLicense, []]] as const) {
      const claim = { public_key: product.public_key, license_key: license.licenseKey, domain: 'shop.example.com' };
      const validated = await post('/public/v1/licenses/validate', claim);
      expect(validated.json.license.features).toEqual(features);
      const activated = await post('/public/v1/licenses/activate', claim);
      expect(activated.json.license).toEqual({ features });
      const checked = await post('/public/v1/licenses/check', claim);
      expect(checked.json).toMatchObject({ activated: true, license: { features } });
      for (const answer of [validated, activated, checked]) expect((await verifyAnswer(answer, keys, undefined, { bound: true })).valid).toBe(true);
      // The edge answers alike.
      expect((await post('/v1/licenses/validate', { license_key: license.licenseKey })).json.license.features).toEqual(features);

      const offline = await post('/public/v1/licenses/offline', claim);
      expect(offline.status, offline.body.toString()).toBe(200);
      const { verdict, payload } = verifyOfflineLicense(offline.json.license_file, keys as KnownKey[], 'shop.example.com', new Date());
      expect(verdict).toBe('valid');
      expect(payload!.features).toEqual(features);
    }
    // The signature covers the features: the same answer claiming one more fails the verifier.
    const claim = { public_key: product.public_key, license_key: basicLicense.licenseKey };
    const answer = await post('/public/v1/licenses/validate', claim);
    const forged = { ...answer, body: Buffer.from(answer.body.toString('utf8').replace('"features":[]', '"features":["reports"]')) };
    expect(forged.body.toString()).toContain('"features":["reports"]');
    expect((await verifyAnswer(forged, keys, undefined, { bound: true })).valid).toBe(false);
  });

  it('are set per license, checked against the product; an explicit list on create wins over the plan', async () => {
    const { tenant, product, pro } = await tieredProduct();
    const license = await newLicense(tenant, product.id, { planId: pro.id, features: ['white-label'] });
    expect((license as any).features).toEqual(['white-label']);
    const path = `/api/licenses/${license.id}`;
    expect((await body(tenant.put(path, { features: ['reports', 'white-label', 'reports'] }))).features).toEqual(['reports', 'white-label']);
    const refused = await tenant.put(path, { features: ['reports', 'exports'] });
    expect([refused.status, refused.body.error]).toEqual([400, 'Unknown feature: exports']);
    const refusedCreate = await tenant.post('/api/licenses', { productId: product.id, customerEmail: 'x@example.com', features: ['exports'] });
    expect([refusedCreate.status, refusedCreate.body.error]).toEqual([400, 'Unknown feature: exports']);
    expect((await body(tenant.get(path))).features).toEqual(['reports', 'white-label']);
    expect((await post('/v1/licenses/validate', { license_key: license.licenseKey })).json.license.features).toEqual(['reports', 'white-label']);
    expect((await body(tenant.put(path, { features: [] }))).features).toEqual([]);
    expect((await plugin().post('/v1/licenses/validate', { license_key: license.licenseKey }, { origin: null })).body.license.features).toEqual([]);
  });

  it('a checkout issues the plan’s features, and a plan change moves them with the seats', async () => {
    const s = await shop();
    await body(s.tenant.put(`/api/products/${s.product.id}`, { features: FEATURES }));
    const plans = `/api/products/${s.product.id}/plans`;
    await body(s.tenant.put(`${plans}/${s.plans.basic.id}`, { features: ['reports'] }));
    await body(s.tenant.put(`${plans}/${s.plans.agency.id}`, { features: ['reports', 'white-label'] }));
    const { license, subscription, subscriptionId } = await subscribe(s, 'features-buyer@example.com');
    expect(license.features).toEqual(['reports']);
    await activate(license.licenseKey, ['one.example.com']);

    // An upgrade applies at once: Agency's seats and features, same key.
    expect((await changePlan(s, subscriptionId, s.plans.agency.id)).status).toBe(200);
    const upgraded = await licenseOf(s, license.id);
    expect(upgraded).toMatchObject({ licenseKey: license.licenseKey, seats: 10, planId: s.plans.agency.id, features: ['reports', 'white-label'] });
    const validated = await plugin().post('/v1/licenses/validate', { license_key: license.licenseKey }, { origin: null });
    expect(validated.body.license.features).toEqual(['reports', 'white-label']);

    // A downgrade waits for the renewal, features too.
    expect((await changePlan(s, subscriptionId, s.plans.basic.id)).status).toBe(200);
    await tellSubscription(s, subscription.id);
    expect(await licenseOf(s, license.id)).toMatchObject({ planId: s.plans.agency.id, features: ['reports', 'white-label'] });
    await tellRenewal(s, subscription.id);
    expect(await licenseOf(s, license.id)).toMatchObject({ planId: s.plans.basic.id, seats: 3, features: ['reports'] });
  });

  it('show on the public plans list by key and name, so a pricing table can list them', async () => {
    const { product } = await tieredProduct();
    const res = await plugin().get(`/public/v1/plans?public_key=${product.public_key}`, { origin: null });
    expect(res.status, res.text).toBe(200);
    expect(res.body.plans.map((plan: { name: string; features: unknown }) => [plan.name, plan.features])).toEqual([
      ['Pro', [{ key: 'reports', name: 'Reports' }]],
      ['Basic', []],
    ]);
  });
});
