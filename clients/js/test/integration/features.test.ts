/** `hasFeature(key)` against the local stack: a Pro plan's feature from the signed answer, the cache and an offline file. */
import { describe, expect, inject, it } from 'vitest';
import { newTenant } from '../../../../test/support/client.js';
import { newLicense, newProduct } from '../../../../test/support/licensing-fixtures.js';
import { LicensingClient, type PublicSigningKey } from '../../src/index.js';
import { closedPort } from '../support/script-server.js';

const baseUrl = inject('baseUrl');

/** A product with a `reports` feature, a license of its Pro plan (which grants it) and one of its Basic plan. */
async function tiers() {
  const tenant = await newTenant();
  const product = await newProduct(tenant, { features: [{ key: 'reports', name: 'Reports' }] });
  const plan = async (name: string, features: string[]) =>
    (await tenant.post(`/api/products/${product.id}/plans`, { name, billingCycle: 'yearly', price: 10, currency: 'usd', features })).body;
  const pro = await newLicense(tenant, product.id, { planId: (await plan('Pro', ['reports'])).id });
  const basic = await newLicense(tenant, product.id, { planId: (await plan('Basic', [])).id });
  const publicKeys: PublicSigningKey[] = (await tenant.get(`/api/products/${product.id}`)).body.signingKeys;
  return { product, pro, basic, publicKeys };
}

describe('hasFeature', () => {
  it('is true for a Pro license and false for a Basic one, from the verified answer and from an offline file', async () => {
    const { product, pro, basic, publicKeys } = await tiers();
    let stored: string | null = null;
    const offline = { load: () => stored, save: (file: string) => void (stored = file) };
    const online = new LicensingClient({ baseUrl, publicKey: product.public_key, signing: { publicKeys }, offline, cache: false });
    const unreachable = new LicensingClient({ baseUrl: await closedPort(), publicKey: product.public_key, signing: { publicKeys }, offline, cache: false, retries: 0 });

    for (const [license, expected] of [[pro, true], [basic, false]] as const) {
      const answer = await online.validate(license.licenseKey, { domain: 'shop.example.com' });
      expect([answer.source, answer.hasFeature('reports'), answer.hasFeature('white-label')]).toEqual(['service', expected, false]);

      await online.activate(license.licenseKey, 'shop.example.com');
      await online.fetchOfflineLicense(license.licenseKey, 'shop.example.com');
      const fromFile = await unreachable.validate(license.licenseKey, { domain: 'shop.example.com' });
      expect([fromFile.source, fromFile.hasFeature('reports')]).toEqual(['offline', expected]);
      expect((await online.validateOffline(license.licenseKey, { domain: 'shop.example.com' })).hasFeature('reports')).toBe(expected);
    }
    // A refusal carries no feature.
    const refused = await online.validate(`${pro.licenseKey.slice(0, -4)}ZZZZ`);
    expect([refused.valid, refused.hasFeature('reports')]).toEqual([false, false]);
  });
});
