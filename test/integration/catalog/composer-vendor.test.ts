/** The account's Composer vendor (DECISIONS §24): its default, its uniqueness, renaming it, and where it shows. */
import { describe, expect, inject, it } from 'vitest';
import { Client, newTenant } from '../../support/client.js';
import { newLicense, newProduct, newRelease, plugin } from '../../support/licensing-fixtures.js';
import { emailsSent } from '../../support/mail.js';
import { pluginZip } from '../../support/plugin-zip.js';
import { shop, subscribe } from '../../support/plan-shop.js';
import { joinedMember } from '../../support/team.js';

const basic = (key: string) => ({ authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` });

describe("the account's Composer vendor", () => {
  it("defaults to the account's name, a suffix when another account holds it, and is claimed with the first product", async () => {
    const named = async (name: string) => {
      const tenant = await newTenant();
      expect((await tenant.put('/api/auth/me', { name })).status).toBe(200);
      await newProduct(tenant);
      return (await tenant.get('/api/account/settings')).body.composerVendor as string;
    };
    const suffix = Date.now().toString(36);
    const first = await named(`Ünïque Vendor ${suffix}`);
    expect(first).toBe(`unique-vendor-${suffix}`);
    expect(await named(`Ünïque Vendor ${suffix}`)).toBe(`${first}-2`);
    // A settings read claims one for an account without products.
    const bare = await newTenant();
    expect((await bare.get('/api/account/settings')).body.composerVendor).toMatch(/^dev(-[a-z0-9]+)?$/);
  });

  it('is renamed by PUT, unique in the deployment (409), Composer-shaped (400), and renames the packages at once', async () => {
    const tenant = await newTenant();
    const product = await newProduct(tenant, { productType: 'plugin' });
    await newRelease(tenant, product.id, { version: '1.0.0' }, await pluginZip({ 'p/p.php': '<?php /* Plugin Name: P */' }));
    const license = await newLicense(tenant, product.id);
    const chosen = `acme-${Date.now().toString(36)}`;
    const renamed = await tenant.put('/api/account/settings', { composerVendor: chosen });
    expect([renamed.status, renamed.body]).toEqual([200, { composerVendor: chosen }]);
    const packages = await plugin().get('/composer/packages.json', { origin: null, headers: basic(license.licenseKey) });
    expect(packages.body['available-packages']).toEqual([`${chosen}/${product.slug}`]);

    const other = await newTenant();
    const taken = await other.put('/api/account/settings', { composerVendor: chosen });
    expect([taken.status, taken.body]).toEqual([409, { error: `Composer vendor ${chosen} is taken` }]);
    for (const bad of ['Acme', 'acme--x', '-acme', 'acme/x', '', 'a'.repeat(65)]) {
      expect((await other.put('/api/account/settings', { composerVendor: bad })).status, bad).toBe(400);
    }
    expect((await other.put('/api/account/settings', { composerVendor: chosen, extra: 1 })).status).toBe(400);
    // The old name is free again once left.
    expect((await tenant.put('/api/account/settings', { composerVendor: `${chosen}.two` })).status).toBe(200);
    expect((await other.put('/api/account/settings', { composerVendor: chosen })).body).toEqual({ composerVendor: chosen });
    expect((await plugin().get(`/composer/p2/${chosen}/${product.slug}.json`, { origin: null, headers: basic(license.licenseKey) })).status).toBe(404);
  });

  it('is read by any member and changed only by a role that may change the catalog', async () => {
    const owner = await newTenant();
    await newProduct(owner);
    const viewer = await joinedMember(owner, 'viewer', owner.userId);
    expect((await viewer.get('/api/account/settings')).status).toBe(200);
    const refused = await viewer.put('/api/account/settings', { composerVendor: `viewer-${Date.now().toString(36)}` });
    expect([refused.status, refused.body]).toEqual([403, { error: 'Your role does not allow this' }]);
  });
});

describe('a Composer-enabled product', () => {
  it("is flagged on the product, and its license e-mail says how to install it with Composer", async () => {
    const tenant = await newTenant();
    const product = await newProduct(tenant, { productType: 'plugin', composerEnabled: true });
    expect((await tenant.get(`/api/products/${product.id}`)).body.composerEnabled).toBe(true);
    const vendor = (await tenant.get('/api/account/settings')).body.composerVendor;
    const plan = await tenant.post(`/api/products/${product.id}/plans`, { name: 'Basic', slug: 'basic', billingCycle: 'yearly', price: 10, currency: 'usd', trialDays: 7 });
    expect(plan.status, plan.text).toBe(201);
    const email = `buyer-${Date.now().toString(36)}@example.com`;
    const trial = await new Client().post('/public/v1/trials', { public_key: product.public_key, plan: 'basic', email }, { origin: null });
    expect(trial.status, trial.text).toBe(201);
    const [mail] = await emailsSent((m) => m.to.includes(email));
    expect(mail!.text).toContain(`"url": "${inject('baseUrl')}/composer"`);
    expect(mail!.text).toContain(`composer require ${vendor}/${product.slug}`);
  });

  it("says so in a purchase's license e-mail too, with the service's address and the buyer's key", async () => {
    const s = await shop();
    expect((await s.tenant.put(`/api/products/${s.product.id}`, { composerEnabled: true })).status).toBe(200);
    const vendor = (await s.tenant.get('/api/account/settings')).body.composerVendor;
    const email = `composer-buyer-${Date.now().toString(36)}@example.com`;
    const { license } = await subscribe(s, email);
    const [mail] = await emailsSent((m) => m.to.includes(email));
    expect(mail!.text).toContain(`"url": "${inject('baseUrl')}/composer"`);
    expect(mail!.text).toContain(`"username": "${license.licenseKey}"`);
    expect(mail!.text).toContain(`composer require ${vendor}/${s.product.slug}`);
  });
});
