import { describe, expect, it } from 'vitest';
import { readLicenseById } from '../../../shared/licensing/activations/license-by-id.js';
import type { DataService } from '../../../shared/platform/data/service.js';
import { newTenant } from '../../support/client.js';
import { newLicense, newProduct } from '../../support/licensing-fixtures.js';
import { localData } from '../../support/table.js';

/**
 * A license read by its id while its key is regenerated between the ref's read and the item's: the read follows
 * the ref again. Taking the vanished key for a deleted license let a deactivation skip giving its place back.
 */
describe('a license read by id', () => {
  it('follows a key regenerated between reading the ref and reading the item', async () => {
    const tenant = await newTenant();
    const product = await newProduct(tenant);
    const license = await newLicense(tenant, product.id);
    const data = localData();
    let regenerated: string | undefined;
    const racingLicense: DataService['reads']['license'] = {
      get: async (key, options) => {
        if (!regenerated) regenerated = (await tenant.post(`/api/licenses/${license.id}/regenerate`)).body.licenseKey;
        return data.reads.license.get(key, options);
      },
    };
    // The other readers stay as they are (built lazily, on first use).
    const racing: DataService = { ...data, reads: Object.defineProperty(Object.create(data.reads), 'license', { value: racingLicense }) };
    const read = await readLicenseById({ data: racing }, license.id);
    expect(regenerated).toMatch(/-/);
    expect(read?.licenseKey).toBe(regenerated);
  });

  it('is undefined once the license is deleted', async () => {
    const tenant = await newTenant();
    const product = await newProduct(tenant);
    const license = await newLicense(tenant, product.id);
    expect((await tenant.delete(`/api/licenses/${license.id}`)).status).toBe(204);
    expect(await readLicenseById({ data: localData() }, license.id)).toBeUndefined();
  });
});
