import { describe, expect, it } from 'vitest';
import { Client, newTenant } from '../../support/client.js';
import { importFile, importFixture } from '../../support/imports.js';
import { newProduct, newRelease, plugin, type Tenant } from '../../support/licensing-fixtures.js';

/**
 * Every format imports its test file (test/fixtures/imports/, written from each product's export documentation)
 * over HTTP, through the queue and the worker, and every imported key then works on each surface as a generated one
 * does: validate, activate (imported sites take their seats), update check, download, portal and search.
 */

type Expected = {
  counts: { licenses: number; customers: number; activations: number; skipped: number };
  /** Keys and what validate says of them: `true`, or the refusal's message. */
  keys: Record<string, true | string>;
  /** An active key, its customer's e-mail and what it holds: imported sites count against its seats. */
  sample: { key: string; email: string; seats: number; activatedCount: number };
};

const FORMATS: Record<string, { file: string; contentType?: string; expected: Expected }> = {
  csv: {
    file: 'csv.csv',
    expected: {
      counts: { licenses: 4, customers: 3, activations: 2, skipped: 0 },
      keys: {
        'OURS-kept-0001-abcd': true,
        'OURS-kept-0002-abcd': true,
        'OURS-kept-0003-abcd': 'License is suspended',
        'OURS-kept-0004-abcd': 'License has expired',
      },
      sample: { key: 'OURS-kept-0001-abcd', email: 'ada@example.com', seats: 3, activatedCount: 1 },
    },
  },
  edd: {
    file: 'edd.csv',
    expected: {
      counts: { licenses: 4, customers: 3, activations: 1, skipped: 0 },
      keys: {
        '5f1e2b3c4d5a69788796a5b4c3d2e1f0': true,
        '0a1b2c3d4e5f60718293a4b5c6d7e8f9': true,
        e0d1c2b3a4958677869fa0b1c2d3e4f5: 'License has expired',
        '9f8e7d6c5b4a39281706f5e4d3c2b1a0': 'License is suspended',
      },
      sample: { key: '5f1e2b3c4d5a69788796a5b4c3d2e1f0', email: 'jane@example.com', seats: 2, activatedCount: 1 },
    },
  },
  woocommerce: {
    file: 'woocommerce.csv',
    expected: {
      counts: { licenses: 4, customers: 3, activations: 0, skipped: 0 },
      keys: {
        'WC-7F3K-9QX2-LM4P-88ZA': true,
        'WC-2B6N-4RT8-QW1E-55YU': true,
        'WC-8H5J-3KD1-ZX7C-22VB': 'License has expired',
        'WC-5N2M-6PL9-RT4Y-11QW': 'License is suspended',
      },
      sample: { key: 'WC-7F3K-9QX2-LM4P-88ZA', email: 'woocommerce-user-21@import.invalid', seats: 3, activatedCount: 0 },
    },
  },
  freemius: {
    file: 'freemius.csv',
    expected: {
      counts: { licenses: 4, customers: 4, activations: 0, skipped: 0 },
      keys: {
        'sk_Fx9%^+qL2;mN7pR4tW8zY1bC3dE5g': true,
        sk_Ab3Cd5Ef7Gh9Jk2Lm4Np6Qr8St0Uv1: true,
        sk_Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0: 'License has expired',
        sk_Cancelled0000refund1111xyz2222: 'License has been revoked',
      },
      sample: { key: 'sk_Fx9%^+qL2;mN7pR4tW8zY1bC3dE5g', email: 'lena@example.com', seats: 3, activatedCount: 0 },
    },
  },
  lemonsqueezy: {
    file: 'lemonsqueezy.csv',
    expected: {
      counts: { licenses: 4, customers: 4, activations: 0, skipped: 0 },
      keys: {
        '38b1460a-5104-4067-a91d-77b872934d51': true,
        '9c2d7e4f-1a3b-4c5d-8e9f-0a1b2c3d4e5f': true,
        'f47ac10b-58cc-4372-a567-0e02b2c3d479': 'License is suspended',
        '6ba7b810-9dad-11d1-80b4-00c04fd430c8': 'License has expired',
      },
      sample: { key: '38b1460a-5104-4067-a91d-77b872934d51', email: 'nia@example.com', seats: 5, activatedCount: 0 },
    },
  },
  gumroad: {
    file: 'gumroad.csv',
    expected: {
      // The renewal repeats its subscription's key (skipped); the e-book sale and the totals row have none (ignored).
      counts: { licenses: 3, customers: 3, activations: 0, skipped: 1 },
      keys: {
        'A1B2C3D4-E5F6A7B8-C9D0E1F2-A3B4C5D6': true,
        'B2C3D4E5-F6A7B8C9-D0E1F2A3-B4C5D6E7': true,
        'C3D4E5F6-A7B8C9D0-E1F2A3B4-C5D6E7F8': 'License has been revoked',
      },
      sample: { key: 'B2C3D4E5-F6A7B8C9-D0E1F2A3-B4C5D6E7', email: 'vik@example.com', seats: 3, activatedCount: 0 },
    },
  },
  jsonl: {
    file: 'jsonl.jsonl',
    contentType: 'application/x-ndjson',
    expected: {
      counts: { licenses: 2, customers: 1, activations: 2, skipped: 0 },
      keys: { 'OLD-AAAA-BBBB-CCCC-DDDD': true, 'OLD-EEEE-FFFF-GGGG-HHHH': 'License has been revoked' },
      sample: { key: 'OLD-AAAA-BBBB-CCCC-DDDD', email: 'yara@example.com', seats: 5, activatedCount: 1 },
    },
  },
};

const validate = (licenseKey: string, domain?: string) => plugin().post('/v1/licenses/validate', { license_key: licenseKey, ...(domain ? { domain } : {}) }, { origin: null });

async function importedInto(format: string) {
  const tenant = (await newTenant()) as Tenant;
  const product = await newProduct(tenant);
  const plan = await tenant.post(`/api/products/${product.id}/plans`, { name: 'Pro', slug: 'pro', billingCycle: 'yearly', price: 99, currency: 'USD', siteLimit: 5 });
  expect(plan.status, plan.text).toBe(201);
  const { file, contentType } = FORMATS[format]!;
  const job = await importFile(tenant, { productId: product.id, format }, importFixture(file), contentType);
  return { tenant, product, job };
}

describe('imports', () => {
  for (const [format, { expected }] of Object.entries(FORMATS)) {
    it(`read ${format} exports: every kept key validates as it did, imported sites take their seats`, async () => {
      const { tenant, product, job } = await importedInto(format);
      expect(job).toMatchObject({ status: 'done', dryRun: false, format, productId: product.id, counts: expected.counts, errors: [], errorCount: 0 });

      for (const [key, answer] of Object.entries(expected.keys)) {
        const res = await validate(key);
        expect([key, res.body.valid === true ? true : res.body.error], res.text).toEqual([key, answer]);
      }
      const { key, email, seats, activatedCount } = expected.sample;
      const held = (await validate(key)).body.license;
      expect(held).toMatchObject({ key, seats, activatedCount });
      // The seats left take new sites; one more is refused.
      for (let n = activatedCount; n < Math.min(seats, 3); n++) {
        const res = await plugin().post('/v1/licenses/activate', { license_key: key, domain: `site${n}.${format}.example.net` }, { origin: null });
        expect(res.status, res.text).toBe(200);
      }
      if (seats <= 3) {
        const full = await plugin().post('/v1/licenses/activate', { license_key: key, domain: `one-more.${format}.example.net` }, { origin: null });
        expect([full.status, full.body.error]).toEqual([400, 'License seat limit reached']);
      }
      // Management search finds it by its kept key, the portal by its customer's e-mail.
      const found = await tenant.get(`/api/licenses?search=${encodeURIComponent(key)}`);
      expect(found.body.items.map((l: { licenseKey: string }) => l.licenseKey)).toEqual([key]);
      const apiKey = await tenant.post('/api/api-keys', { name: 'Portal' });
      const server = new Client();
      server.bearer = apiKey.body.key;
      const portal = await server.get(`/v1/portal/licenses?email=${encodeURIComponent(email)}`, { origin: null });
      expect(portal.body.data.map((l: { licenseKey: string }) => l.licenseKey), portal.text).toContain(key);

      // Updates and downloads, for the key as given (query-encoded).
      const release = await newRelease(tenant, product.id, { version: '3.1.0' });
      const keyParam = encodeURIComponent(key);
      const check = await plugin().get(`/v1/wp/update-check?slug=${product.slug}&license_key=${keyParam}&version=3.0.0`, { origin: null });
      expect(check.status, check.text).toBe(200);
      expect(check.body).toMatchObject({ new_version: '3.1.0', package: expect.stringContaining(`/v1/download/${release.id}?license_key=${keyParam}`) });
      const download = await plugin().get(`/v1/download/${release.id}?license_key=${keyParam}`, { origin: null });
      expect(download.status, download.text).toBe(302);
      const refused = Object.entries(expected.keys).find(([, answer]) => answer !== true)![0];
      const refusedCheck = await plugin().get(`/v1/wp/update-check?slug=${product.slug}&license_key=${encodeURIComponent(refused)}&version=3.0.0`, { origin: null });
      expect(refusedCheck.body.package).toBeUndefined();
    });
  }
});

describe('an imported row with a plan', () => {
  it("takes the plan's channel, as a license made from the plan through the API does", async () => {
    const tenant = (await newTenant()) as Tenant;
    const product = await newProduct(tenant);
    const plan = await tenant.post(`/api/products/${product.id}/plans`, { name: 'Early', slug: 'early', billingCycle: 'yearly', price: 99, currency: 'USD', channel: 'beta' });
    expect(plan.status, plan.text).toBe(201);
    const rows = ['license_key,customer_email,status,seats,plan_slug', 'PLAN-kept-0001-beta,eve@example.com,active,1,early', 'PLAN-kept-0002-none,eve@example.com,active,1,'];
    const job = await importFile(tenant, { productId: product.id, format: 'csv' }, `${rows.join('\n')}\n`, 'text/csv');
    expect(job).toMatchObject({ status: 'done', counts: { licenses: 2 }, errorCount: 0 });
    const channelOf = async (key: string) => (await tenant.get(`/api/licenses?search=${key}`)).body.items[0]?.channel;
    expect([await channelOf('PLAN-kept-0001-beta'), await channelOf('PLAN-kept-0002-none')]).toEqual(['beta', 'stable']);
  });

  it("takes a channel column (an export's licenses.csv has one) over the plan's, and refuses an unknown channel by row", async () => {
    const tenant = (await newTenant()) as Tenant;
    const product = await newProduct(tenant);
    expect((await tenant.post(`/api/products/${product.id}/plans`, { name: 'Early', slug: 'early', billingCycle: 'yearly', price: 99, currency: 'USD', channel: 'beta' })).status).toBe(201);
    const rows = ['license_key,customer_email,plan_slug,channel', 'CHAN-kept-0001-alpha,eve@example.com,early,alpha', 'CHAN-kept-0002-plan,eve@example.com,early,', 'CHAN-kept-0003-bad,eve@example.com,,nightly'];
    const job = await importFile(tenant, { productId: product.id, format: 'csv' }, `${rows.join('\n')}\n`, 'text/csv');
    expect(job).toMatchObject({ status: 'done', counts: { licenses: 2 }, errors: [{ row: 4, message: 'channel: "nightly" is not one of stable, beta, alpha' }] });
    const channelOf = async (key: string) => (await tenant.get(`/api/licenses?search=${key}`)).body.items[0]?.channel;
    expect([await channelOf('CHAN-kept-0001-alpha'), await channelOf('CHAN-kept-0002-plan')]).toEqual(['alpha', 'beta']);
  });
});

describe('imported features (DECISIONS §23)', () => {
  it("gives a row its plan's features, or the features column's (an export's licenses.csv), keeping only the product's", async () => {
    const tenant = (await newTenant()) as Tenant;
    const product = await newProduct(tenant, { features: [{ key: 'reports', name: 'Reports' }, { key: 'sso', name: 'SSO' }, { key: 'export', name: 'Export' }] });
    const plan = await tenant.post(`/api/products/${product.id}/plans`, { name: 'Pro', slug: 'pro', billingCycle: 'yearly', price: 99, currency: 'USD', features: ['reports', 'sso'] });
    expect(plan.status, plan.text).toBe(201);
    const rows = [
      'license_key,customer_email,plan_slug,features',
      'FEAT-kept-0001-plan,fay@example.com,pro,',
      'FEAT-kept-0002-own,fay@example.com,pro,"[""export""]"',
      'FEAT-kept-0003-list,fay@example.com,,reports;nope',
      'FEAT-kept-0004-none,fay@example.com,,',
      'FEAT-kept-0005-bad,fay@example.com,,"[""reports"""',
    ];
    const job = await importFile(tenant, { productId: product.id, format: 'csv' }, `${rows.join('\n')}\n`, 'text/csv');
    expect(job).toMatchObject({
      status: 'done',
      counts: { licenses: 4 },
      errors: [{ row: 6, message: 'features: "["reports"" is not a list of feature keys' }],
      warnings: [{ row: 4, message: 'feature nope is not defined by this product: left out' }],
    });
    const featuresOf = async (key: string) => (await tenant.get(`/api/licenses?search=${key}`)).body.items[0]?.features;
    expect(await Promise.all(['FEAT-kept-0001-plan', 'FEAT-kept-0002-own', 'FEAT-kept-0003-list', 'FEAT-kept-0004-none'].map(featuresOf))).toEqual([['reports', 'sso'], ['export'], ['reports'], []]);
    // What the plugin is told: the imported license's features, as for a license issued here.
    const validated = await plugin().post('/v1/licenses/validate', { license_key: 'FEAT-kept-0001-plan' }, { origin: null });
    expect(validated.body.license?.features).toEqual(['reports', 'sso']);
  });
});

describe('imported devices (DECISIONS §18)', () => {
  it('takes `machine:<fingerprint>` entries of the domains column as devices holding seats, raising the seats they overfill', async () => {
    const tenant = (await newTenant()) as Tenant;
    const product = await newProduct(tenant);
    const tooLong = `machine:${'f'.repeat(129)}`;
    const rows = [
      'license_key,customer_email,seats,domains',
      'DEVS-kept-0001-both,ida@example.com,2,ida-shop.com;machine:ws-1',
      'DEVS-kept-0002-full,ida@example.com,1,machine:ws-2;machine:ws-3',
      'DEVS-kept-0003-long,ida@example.com,1,' + tooLong,
    ];
    const job = await importFile(tenant, { productId: product.id, format: 'csv' }, `${rows.join('\n')}\n`, 'text/csv');
    expect(job).toMatchObject({
      status: 'done',
      counts: { licenses: 2, activations: 4 },
      errors: [{ row: 4, message: `machine "${'f'.repeat(40)}" must be 1 to 128 printable characters` }],
      // No key is lost (DECISIONS §27): the license keeps both devices, its seats raised to hold them.
      warnings: [{ row: 3, message: '2 active machines are more than its 1 seat: seats raised to 2, so every one keeps working' }],
    });
    expect((await tenant.get('/api/licenses?search=DEVS-kept-0002-full')).body.items[0]).toMatchObject({ seats: 2, activatedCount: 2 });
    const license = (await tenant.get('/api/licenses?search=DEVS-kept-0001-both')).body.items[0];
    const { body } = await tenant.get(`/api/licenses/${license.id}`);
    expect(body.activatedCount).toBe(2);
    expect(body.activations.map(({ domain, machine }: { domain: string; machine: string }) => [domain, machine]).sort()).toEqual([
      [null, 'ws-1'],
      ['ida-shop.com', null],
    ]);
    // The device is active as if it had activated: it validates, activates again without a second seat, and the
    // license's two seats are full.
    const key = { license_key: 'DEVS-kept-0001-both' };
    expect((await plugin().post('/v1/licenses/validate', { ...key, machine: 'ws-1' }, { origin: null })).body).toMatchObject({ valid: true });
    expect((await plugin().post('/v1/licenses/activate', { ...key, machine: 'ws-1' }, { origin: null })).status).toBe(200);
    const third = await plugin().post('/v1/licenses/activate', { ...key, machine: 'ws-9' }, { origin: null });
    expect([third.status, third.body.error]).toEqual([400, 'License seat limit reached']);
  });

  it('keeps a floating license floating, and refuses a lease lifetime out of range by row', async () => {
    const tenant = (await newTenant()) as Tenant;
    const product = await newProduct(tenant);
    const license = (key: string, fields: object) =>
      JSON.stringify({ type: 'license', id: key, licenseKey: key, productId: 'prd_old', customerEmail: 'jo@example.com', status: 'active', seats: 2, createdAt: '2026-01-05T10:00:00.000Z', ...fields });
    const lines = [
      JSON.stringify({ type: 'export', formatVersion: 1, exportedAt: '2026-11-01T00:00:00.000Z' }),
      license('FLOAT-kept-0001', { floating: true, leaseSeconds: 300 }),
      license('FLOAT-kept-0002', { floating: true, leaseSeconds: 30 }),
    ];
    const job = await importFile(tenant, { productId: product.id, format: 'jsonl' }, `${lines.join('\n')}\n`, 'application/x-ndjson');
    expect(job).toMatchObject({ status: 'done', counts: { licenses: 1 }, errors: [{ row: 3, message: 'lease seconds must be a whole number from 60 to 86400' }] });
    expect((await tenant.get('/api/licenses?search=FLOAT-kept-0001')).body.items[0]).toMatchObject({ floating: true, leaseSeconds: 300 });
    // Its seats are lent to machines by leases, as a floating license made through the API.
    const lease = await plugin().post('/v1/licenses/leases', { license_key: 'FLOAT-kept-0001', machine: 'ws-1' }, { origin: null });
    expect(lease.status, lease.text).toBe(201);
  });
});
