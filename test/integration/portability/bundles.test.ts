/** Bundles (DECISIONS §23) in the account export and the import: the bundle with its products, and its licenses. */
import { describe, expect, it } from 'vitest';
import { recordSchemas, type PortableRecord } from '../../../shared/portability/records.js';
import { newTenant } from '../../support/client.js';
import { finishedExport } from '../../support/exports.js';
import { importFile } from '../../support/imports.js';
import { newLicense, newProduct, plugin } from '../../support/licensing-fixtures.js';

const FEATURES = [{ key: 'reports', name: 'Reports' }];

describe('bundles in exports and imports', () => {
  it("exports a bundle's type, products and features, and its licenses import as one key for each included product", async () => {
    const tenant = await newTenant();
    const [first, second] = [await newProduct(tenant), await newProduct(tenant)];
    const bundle = await newProduct(tenant, { productType: 'bundle', includes: [first.id, second.id], features: FEATURES });
    const plan = (await tenant.post(`/api/products/${bundle.id}/plans`, { name: 'All access', billingCycle: 'yearly', price: 99, currency: 'usd', siteLimit: 2, features: ['reports'] })).body;
    const license = await newLicense(tenant, bundle.id, { planId: plan.id });

    const { bytes } = await finishedExport(tenant, 'jsonl');
    const records = bytes.toString('utf8').trimEnd().split('\n').map((line) => recordSchemas().portable.parse(JSON.parse(line)));
    const byId = (id: string) => records.find((record: PortableRecord) => 'id' in record && record.id === id);
    expect(byId(bundle.id)).toMatchObject({ type: 'product', productType: 'bundle', includes: [first.id, second.id], features: FEATURES });
    expect(byId(first.id)).toMatchObject({ type: 'product', productType: 'plugin', includes: [] });
    expect(byId(plan.id)).toMatchObject({ type: 'plan', productId: bundle.id, features: ['reports'] });
    expect(byId(license.id)).toMatchObject({ type: 'license', productId: bundle.id, planId: plan.id, features: ['reports'] });

    // Moved into another account's bundle (keys are unique in the deployment, so the first account lets it go): the key
    // is kept, and answers for each product that bundle includes.
    expect((await tenant.delete(`/api/licenses/${license.id}`)).status).toBe(204);
    const other = await newTenant();
    const [third, fourth] = [await newProduct(other), await newProduct(other)];
    const target = await newProduct(other, { productType: 'bundle', includes: [third.id, fourth.id], features: FEATURES });
    // Licenses come with their plan by its slug, which the target must sell.
    expect((await other.post(`/api/products/${target.id}/plans`, { name: 'All access', billingCycle: 'yearly', price: 99, currency: 'usd', siteLimit: 2 })).status).toBe(201);
    const job = await importFile(other, { productId: target.id, format: 'jsonl' }, bytes.toString('utf8'), 'application/x-ndjson');
    expect(job, JSON.stringify(job)).toMatchObject({ status: 'done', errorCount: 0, counts: expect.objectContaining({ licenses: 1 }) });
    for (const product of [third, fourth]) {
      const validated = await plugin().post('/v1/licenses/validate', { license_key: license.licenseKey, product_slug: product.slug }, { origin: null });
      // With the features it was exported with (the target defines them too).
      expect(validated.body).toMatchObject({ valid: true, product: { id: product.id }, products: [{ id: third.id }, { id: fourth.id }], license: { features: ['reports'] } });
    }
  });
});
